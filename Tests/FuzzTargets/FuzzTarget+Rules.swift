import RTDBCore
import RTDBRules

extension FuzzTarget {
    /// A rules file read and checked; rules that load are asked about a read and a write, as a
    /// user and signed out.
    static func rules(_ bytes: [UInt8]) {
        guard let rules = try? SecurityRules(text: String(decoding: bytes, as: UTF8.self), file: "fuzz.rules.json")
        else { return }
        let user = RuleAuth.user(claims: ["uid": "u1"])
        for auth in [user, RuleAuth.anonymous] {
            for path in [Path.root, Path("users/u1"), Path("a/b/c")] {
                _ = rules.read(path, auth: auth, root: sample, now: UnixTime(millisecondsSince1970: 1_000))
                _ = rules.write(
                    [(path, written)], auth: auth, root: sample, now: UnixTime(millisecondsSince1970: 1_000))
            }
        }
    }

    private static let sample =
        (try? Node(json: ["users": ["u1": ["name": "Ada", "n": 3]], "a": ["b": true]])) ?? .empty
    private static let written = (try? Node(json: ["name": "Bo", "n": 4, "c": "x"])) ?? .empty
}
