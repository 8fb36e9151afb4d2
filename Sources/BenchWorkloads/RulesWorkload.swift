import Presence
import RTDBCore
import RTDBRules

/// The presence rules judging `server-writes`' presence-shaped writes as the server does (counting
/// coverage), each change applied after it is judged: the probe's `--rules` (for callgrind).
public enum RulesWorkload {
    /// The writes judged: connection entries of `users` users, made alike in every run (so that a
    /// run judging none counts their making too).
    static func writes(users: Int) -> [(path: Path, node: Node)] {
        (0..<20_000).map { number in
            let entry: JSONValue = ["device": "bench", "connectedAt": .int(Int64(number))]
            return (Path("users/u\(number % users)/connections/k\(number % 5)"), (try? Node(json: entry)) ?? .empty)
        }
    }

    /// Judges and applies the first `count` writes (at most 20,000), spread over `users` users;
    /// returns how many the rules refused (none, when the rules are right).
    public static func run(_ count: Int, users: Int = 1_000) -> Int {
        guard let parsed = try? SecurityRules(text: PresenceRules.text) else { return count }
        let rules = parsed.withNewCoverage()
        let now = UnixTime(millisecondsSince1970: 1 << 40)
        let auths = (0..<users).map { RuleAuth.user(claims: ["uid": .string("u\($0)")]) }
        let writes = writes(users: users)
        var root = Node.empty
        for write in writes.prefix(users) { root.update(at: write.path, with: write.node) }
        var refused = 0
        for (number, write) in writes.prefix(count).enumerated() {
            let (decision, newRoot) = rules.judgeWrite([write], auth: auths[number % users], root: root, now: now)
            guard decision.isAllowed else {
                refused += 1
                continue
            }
            if let newRoot { root = newRoot } else { root.update(at: write.path, with: write.node) }
        }
        return refused
    }
}
