import RTDBCore
import RTDBRules
import Testing

/// Rules as they run compiled: wildcards named by their place above the rule (past the four kept
/// inline too), literal paths parsed once, and coverage counted by decisions running at once.
@Suite struct CompiledRulesTests {
    /// Six nested wildcards, each rule naming one by name, and a rule naming two far apart.
    static let deep = """
        {"rules": {"$a": {"$b": {"$c": {"$d": {"$e": {"$f": {
          ".write": "$a == 'a' && $e == 'e' && $f == auth.uid",
          ".validate": "newData.child($d).exists() && newData.hasChildren([$b, 'x/y'])"
        }}}}}}}}
        """

    static func write(_ rules: SecurityRules, _ uid: String, at path: String, _ data: JSONValue) throws -> Bool {
        rules.write(
            [(Path(path), try Node(json: data))], auth: .user(claims: ["uid": .string(uid)]), root: .empty,
            now: .epoch
        ).isAllowed
    }

    @Test func wildcardsPastTheFourthAreBoundToTheirOwnKeys() throws {
        let rules = try SecurityRules(text: Self.deep)
        let data: JSONValue = ["d": 1, "b": 2, "x": ["y": 3]]
        #expect(try Self.write(rules, "f", at: "a/b/c/d/e/f", data))
        // Each wildcard's value matters: a different fifth or sixth key is refused.
        #expect(try !Self.write(rules, "f", at: "a/b/c/d/x/f", data), "$e is the fifth key")
        #expect(try !Self.write(rules, "g", at: "a/b/c/d/e/f", data), "$f is the sixth key")
        #expect(try !Self.write(rules, "f", at: "z/b/c/d/e/f", data), "$a is the first key")
        // The validate reads $d and $b from the data's keys, and a literal path of two levels.
        #expect(try !Self.write(rules, "f", at: "a/b/c/q/e/f", data), "no child named $d (q)")
        #expect(try !Self.write(rules, "f", at: "a/b/c/d/e/f", ["d": 1, "b": 2, "x": 3]), "no x/y")
    }

    @Test func uidsAreComparedByCodeUnits() throws {
        let rules = try SecurityRules(text: #"{"rules": {"$uid": {".write": "$uid == auth.uid"}}}"#)
        // "é" precomposed and decomposed are canonically equivalent, and different keys.
        #expect(try Self.write(rules, "\u{E9}", at: "\u{E9}", 1))
        #expect(try !Self.write(rules, "e\u{301}", at: "\u{E9}", 1))
    }

    @Test func decisionsRunningAtOnceAreAllCounted() async throws {
        let rules = try SecurityRules(text: #"{"rules": {"$uid": {".write": "$uid == auth.uid"}}}"#)
        let tasks = 4
        let each = 2_000
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for number in 0..<each {
                        // Every other write is refused: both values are counted.
                        let uid = number.isMultiple(of: 2) ? "u\(task)" : "other"
                        _ = try? Self.write(rules, uid, at: "u\(task)", 1)
                    }
                }
            }
        }
        let rule = try #require(rules.coverageReport().rules.first)
        #expect(rule.expression.evaluations == tasks * each)
        #expect(rule.expression.count(of: .value(true)) == tasks * each / 2)
        #expect(rule.expression.count(of: .value(false)) == tasks * each / 2)
        #expect(rule.expression.children.map { $0.count(of: .string) } == [tasks * each, tasks * each])
    }
}
