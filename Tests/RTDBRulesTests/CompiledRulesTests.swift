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

    /// Rules shaped like the presence rules, with a `.validate` above the writes too.
    static let shaped = """
        {"rules": {"users": {"$uid": {
          ".write": "auth.uid == $uid",
          ".validate": "newData.hasChildren() || !newData.exists()",
          "connections": {"$entry": {
            ".validate": "newData.hasChildren(['device', 'at'])",
            "device": {".validate": "newData.isString() && newData.val().length <= 5"},
            "at": {".validate": "newData.isNumber() && newData.val() <= now"},
            "$other": {".validate": false}
          }},
          "lastOnline": {".validate": "newData.isNumber()"}
        }}}}
        """

    /// A write judged alone and the same write given twice reach the same decision.
    ///
    /// Alone, its new data is read from what it writes; twice (an update), from the tree as it
    /// would be. Every decision and message must agree.
    @Test(arguments: 0..<20)
    func aWriteAloneIsJudgedAsTheTreeWouldHoldIt(seed: UInt64) throws {
        let rules = try SecurityRules(text: Self.shaped).unrecorded
        var random = SeededRandom(seed: seed)
        var root = Node.empty
        var outcomes = (allowed: 0, refused: 0)
        let devices: [JSONValue] = ["ok", "toolong", 3, .null]
        let times: [JSONValue] = [1, 99_999, "x", .null]
        for _ in 0..<200 {
            let user = "u\(random.next() % 3)"
            let path: String
            let data: JSONValue
            switch random.next() % 5 {
            case 0: (path, data) = ("users/\(user)/lastOnline", random.next() % 2 == 0 ? 5 : "x")
            case 1: (path, data) = ("users/\(user)", .null)
            case 2:
                (path, data) = (
                    "users/\(user)/connections/c\(random.next() % 3)/device", devices[Int(random.next() % 4)]
                )
            default:
                var entry: JSONValue.Members = [:]
                if random.next() % 4 != 0 { entry["device"] = devices[Int(random.next() % 4)] }
                if random.next() % 4 != 0 { entry["at"] = times[Int(random.next() % 4)] }
                if random.next() % 6 == 0 { entry["extra"] = 1 }
                (path, data) = ("users/\(user)/connections/c\(random.next() % 3)", .object(entry))
            }
            let change = (path: Path(path), node: try Node(json: data))
            let auth = RuleAuth.user(claims: ["uid": .string(random.next() % 5 == 0 ? "u9" : user)])
            let now = UnixTime(millisecondsSince1970: 50_000)
            let alone = rules.judgeWrite([change], auth: auth, root: root, now: now)
            let twice = rules.judgeWrite([change, change], auth: auth, root: root, now: now)
            #expect(alone.decision == twice.decision, "\(path) = \(data)")
            if alone.decision.isAllowed {
                outcomes.allowed += 1
                root = alone.newRoot ?? root.updating(at: change.path, with: change.node)
            } else {
                outcomes.refused += 1
            }
        }
        #expect(outcomes.allowed > 20 && outcomes.refused > 20, "both outcomes are tried: \(outcomes)")
    }
    @Test func theTreeAfterAWriteIsMadeOnlyWhenARuleLooksBeyondTheWrittenNodes() throws {
        let rules = try SecurityRules(
            text: """
                {"rules": {"users": {"$uid": {
                  ".write": "auth.uid == $uid",
                  "entries": {"$e": {".validate": "newData.hasChildren(['device'])"}},
                  "pair": {"$p": {".validate": "newData.parent().child('other').exists()"}},
                  "checked": {".validate": "newData.hasChild('name')", "$c": {".validate": true}}
                }}}}
                """)
        let root = try Node(json: ["users": ["u": ["entries": ["old": ["device": "x"]], "checked": ["name": "n"]]]])
        let auth = RuleAuth.user(claims: ["uid": "u"])
        func judge(_ path: String, _ data: JSONValue) throws -> (allowed: Bool, made: Node?) {
            let change = (path: Path(path), node: try Node(json: data))
            let (decision, made) = rules.judgeWrite([change], auth: auth, root: root, now: .epoch)
            if let made { #expect(made == root.updating(at: change.path, with: change.node), "\(path)") }
            return (decision.isAllowed, made)
        }
        // Rules that read only the written node: nothing made, the server makes the change.
        #expect(try judge("users/u/entries/new", ["device": "phone"]) == (true, nil))
        #expect(try judge("users/u/entries/new", ["name": "phone"]).allowed == false)
        // `parent()` looks beside the written node, in the tree as the write leaves it.
        let alone = try judge("users/u/pair/a", 1)
        #expect(!alone.allowed && alone.made != nil)
        let pair = try judge("users/u", ["pair": ["a": 1, "other": 2]])
        #expect(pair.allowed && pair.made != nil)
        // A `.validate` above the write reads the new data there, with the old data beside it.
        let checked = try judge("users/u/checked/c", 1)
        #expect(checked.allowed && checked.made != nil)
    }
}
