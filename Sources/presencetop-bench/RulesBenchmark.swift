import ArgumentParser
import Foundation
import Presence
import PresenceLab
import RTDBCore
import RTDBRules

/// The rules' own cost, in process: judging and applying `server-writes`' presence-shaped writes
/// under the shipped presence rules and under open rules, with no socket, log or disk beside it.
struct RulesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Judge and apply presence-shaped writes in process: presence rules against open rules."
    )

    @Option(help: "Writes per round.")
    var writes = 200_000

    @Option(help: "Rounds of each (the best round is kept).")
    var rounds = 5

    @Option(help: "Users in the tree the writes land in.")
    var users = 1_000

    @Flag(
        help:
            "Also count the instructions that judge and apply one presence write (presence rules, coverage counted) under valgrind --tool=callgrind."
    )
    var callgrind = false

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchReport.run("rules", options: options) { report in
            let tree = Self.tree(users: users)
            var best: [String: Double] = [:]
            for _ in 0..<rounds {
                let variants = [
                    ("open", SecurityRules.open), ("presence", PresenceRules.rules.withNewCoverage()),
                    ("uncounted", PresenceRules.rules.unrecorded),
                ]
                for (name, rules) in variants {
                    let nanoseconds = Self.judgeAndApply(writes, users: users, root: tree, rules: rules)
                    best[name] = min(best[name] ?? .infinity, nanoseconds)
                }
                best["push"] = min(best["push"] ?? .infinity, Self.pushes(writes, onto: 10_000))
            }
            let open = best["open", default: 0]
            let presence = best["presence", default: 0]
            report.record("open_rules_ns_per_write", open)
            report.record("presence_rules_ns_per_write", presence)
            let uncounted = best["uncounted", default: 0]
            report.record("presence_rules_over_open_time_ratio", presence / open)
            report.record("presence_rules_uncounted_ns_per_write", uncounted)
            report.say(
                String(
                    format:
                        "judge and apply one presence write (best of %d rounds of %d): open rules %.0f ns, presence rules %.0f ns (%.2f×; %.0f ns without the coverage counts)",
                    rounds, writes, open, presence, presence / open, uncounted))
            let push = best["push", default: 0]
            report.record("open_rules_push_ns_per_write", push)
            report.say(
                String(
                    format: "push a new child onto a 10,000-child list, then take it off (open rules): %.0f ns a write",
                    push))
            if callgrind {
                try await Callgrind.report(
                    report, key: "presence_rules_instructions_per_write",
                    label: "judge and apply one presence write (presence rules)", measured: 10_000,
                    arguments: { ["--rules", "\($0)"] })
            }
        }
    }

    /// A presence tree: each user with one connection entry and a `lastOnline`.
    static func tree(users: Int) -> Node {
        var root = Node.empty
        for user in 0..<users {
            let entry: JSONValue = ["device": "bench", "connectedAt": 1]
            root = root.updating(at: Path("users/u\(user)/connections/k0"), with: (try? Node(json: entry)) ?? .empty)
            root = root.updating(at: Path("users/u\(user)/lastOnline"), with: Node(.number(1)))
        }
        return root
    }

    /// Nanoseconds per write, under open rules, to add a new key to a list of `size` children
    /// and, the write after, to remove it (`push()` and its removal: a new key in a wide node).
    static func pushes(_ count: Int, onto size: Int) -> Double {
        let now = UnixTime(millisecondsSince1970: 1 << 40)
        var root = Node.empty
        for index in 0..<size {
            root = root.updating(at: Path("messages/m\(index)"), with: Node(.string("hello")))
        }
        let writes = (0..<count).map { number -> (path: Path, node: Node) in
            (Path("messages/p\(number / 2)"), number % 2 == 0 ? Node(.string("hello")) : .empty)
        }
        let start = ContinuousClock.now
        for write in writes {
            let (decision, newRoot) = SecurityRules.open.judgeWrite([write], auth: .admin, root: root, now: now)
            precondition(decision.isAllowed, "open rules refused a write")
            if let newRoot { root = newRoot } else { root.update(at: write.path, with: write.node) }
        }
        let elapsed = ContinuousClock.now - start
        precondition(root.child("messages").childCount == size, "a push was not taken off")
        return elapsed / .nanoseconds(1) / Double(count)
    }

    /// Nanoseconds per write to judge it and apply it as the server does (taking the rules' new
    /// tree when they made one).
    static func judgeAndApply(_ count: Int, users: Int, root: Node, rules: SecurityRules) -> Double {
        let now = UnixTime(millisecondsSince1970: 1 << 40)
        let auths = (0..<users).map { RuleAuth.user(claims: ["uid": .string("u\($0)")]) }
        let writes = (0..<count).map { number -> (path: Path, node: Node) in
            let entry: JSONValue = ["device": "bench", "connectedAt": .int(Int64(number))]
            let path = Path("users/u\(number % users)/connections/k\(number % 5)")
            return (path, (try? Node(json: entry)) ?? .empty)
        }
        var root = root
        var refused = 0
        let start = ContinuousClock.now
        for (number, write) in writes.enumerated() {
            let (decision, newRoot) = rules.judgeWrite(
                [write], auth: auths[number % users], root: root, now: now)
            guard decision.isAllowed else {
                refused += 1
                continue
            }
            // As the server applies it: the tree the rules made, else the change made in place.
            if let newRoot { root = newRoot } else { root.update(at: write.path, with: write.node) }
        }
        let elapsed = ContinuousClock.now - start
        precondition(refused == 0, "the rules refused \(refused) writes they allow")
        return elapsed / .nanoseconds(1) / Double(count)
    }
}
