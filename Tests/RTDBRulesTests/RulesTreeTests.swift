import RTDBCore
import Testing

@testable import RTDBRules

/// How rules at different levels combine: cascading grants, `.validate` on every changed
/// location, named children before wildcards, and multi-location updates as a whole.
struct RulesTreeTests {
    enum Operation: Sendable {
        case read(String)
        case write([(String, String)])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var operation: Operation
        var auth: RuleAuth = .user(claims: ["uid": "morgan"])
        var allowed: Bool

        var testDescription: String { name }
    }

    static let rules = """
        {
          // Comments are allowed, as the console allows them.
          "rules": {
            "public": { ".read": true },
            "locked": { ".read": true, ".write": false,
              "inside": { ".write": true }   /* cannot take back or give what is above */
            },
            "users": {
              ".read": "auth != null",
              "$uid": {
                ".write": "auth.uid == $uid",
                ".validate": "newData.hasChildren(['name'])",
                "name": { ".validate": "newData.isString() && newData.val().length <= 10" },
                "age": { ".validate": "newData.isNumber() && newData.val() >= 0" },
                "admin": { ".validate": false },
                "$other": { ".validate": "$other.beginsWith('x_')" }
              }
            },
            "rooms": {
              "$room": {
                ".read": "data.child('members').hasChild(auth.uid)",
                "lobby": { ".read": true },
                "members": { "$member": { ".write": "auth.uid == $member" } }
              },
              "special": { ".read": "auth.uid == 'sam'" }
            },
            "open": { ".write": true, "sub": { ".validate": "newData.val() != 'bad'" } }
          }
        }
        """

    static let data = """
        {"public": {"a": 1}, "locked": {"inside": 1}, "users": {"morgan": {"name": "Morgan", "age": 30}, "sam": {"name": "Sam"}},
         "rooms": {"r1": {"members": {"morgan": true}, "lobby": {"topic": "hi"}}, "r2": {"members": {"sam": true}},
                   "special": {"members": {"morgan": true}}}}
        """

    static let cases: [Case] = [
        // Reads cascade down; a grant below does not open what is above.
        Case(name: "public read", operation: .read("public"), allowed: true),
        Case(name: "public child read", operation: .read("public/a/b"), allowed: true),
        Case(name: "root read, no rule", operation: .read(""), allowed: false),
        Case(name: "users by a signed-in user", operation: .read("users"), allowed: true),
        Case(name: "users signed out", operation: .read("users/morgan"), auth: .anonymous, allowed: false),
        Case(name: "admin reads anything", operation: .read(""), auth: .admin, allowed: true),
        Case(name: "a member reads the room", operation: .read("rooms/r1"), allowed: true),
        Case(name: "not a member", operation: .read("rooms/r2"), allowed: false),
        Case(name: "the lobby is open below a closed room", operation: .read("rooms/r2/lobby"), allowed: true),
        Case(name: "a named child wins over the wildcard", operation: .read("rooms/special"), allowed: false),
        Case(
            name: "the named child's own rule", operation: .read("rooms/special"), auth: .user(claims: ["uid": "sam"]),
            allowed: true),
        // Writes cascade; false above does not stop a grant below, nor does a grant below open above.
        Case(name: "own profile", operation: .write([("users/morgan", #"{"name": "M"}"#)]), allowed: true),
        Case(name: "someone else's profile", operation: .write([("users/sam", #"{"name": "S"}"#)]), allowed: false),
        Case(
            name: "signed out", operation: .write([("users/morgan", #"{"name": "M"}"#)]), auth: .anonymous,
            allowed: false),
        Case(name: "false above, true below", operation: .write([("locked/inside", "2")]), allowed: true),
        Case(
            name: "true below does not open above", operation: .write([("locked", #"{"inside": 2}"#)]), allowed: false),
        Case(name: "a grant above covers below", operation: .write([("open/a/b/c", "1")]), allowed: true),
        // .validate: every changed location, ancestors included; never on deletes.
        Case(
            name: "a name too long", operation: .write([("users/morgan", #"{"name": "Morgan the 3rd"}"#)]),
            allowed: false),
        Case(name: "a name that is a number", operation: .write([("users/morgan/name", "5")]), allowed: false),
        Case(name: "a child write validates the parent", operation: .write([("users/morgan/age", "3")]), allowed: true),
        Case(name: "the parent must keep its name", operation: .write([("users/morgan/name", "null")]), allowed: false),
        Case(
            name: "a negative age", operation: .write([("users/morgan", #"{"name": "M", "age": -1}"#)]), allowed: false),
        Case(
            name: "validate false forbids a child", operation: .write([("users/morgan/admin", "true")]), allowed: false),
        Case(name: "$other allows x_ keys", operation: .write([("users/morgan/x_color", #""red""#)]), allowed: true),
        Case(name: "$other refuses the rest", operation: .write([("users/morgan/color", #""red""#)]), allowed: false),
        Case(name: "a delete is not validated", operation: .write([("users/morgan", "null")]), allowed: true),
        Case(
            name: "deleting the last child deletes the parent", operation: .write([("users/sam/name", "null")]),
            auth: .user(claims: ["uid": "sam"]), allowed: true),
        Case(name: "validate below a grant above", operation: .write([("open/sub", #""bad""#)]), allowed: false),
        Case(name: "validate below a grant above, fine", operation: .write([("open/sub", #""good""#)]), allowed: true),
        Case(name: "validate of nested new data", operation: .write([("open", #"{"sub": "bad"}"#)]), allowed: false),
        Case(
            name: "admin skips validate", operation: .write([("users/sam/admin", "true")]), auth: .admin, allowed: true),
        // A wildcard's variable in a deeper rule.
        Case(name: "join a room as yourself", operation: .write([("rooms/r2/members/morgan", "true")]), allowed: true),
        Case(name: "add someone else", operation: .write([("rooms/r2/members/alex", "true")]), allowed: false),
        // Multi-location updates: all or nothing, validated on the combined result.
        Case(
            name: "update, every path allowed",
            operation: .write([("users/morgan/name", #""Mo""#), ("rooms/r1/members/morgan", "true")]), allowed: true),
        Case(
            name: "update, one path denied",
            operation: .write([("users/morgan/name", #""Mo""#), ("users/sam/name", #""S""#)]), allowed: false),
        Case(
            name: "update, one path invalid",
            operation: .write([("users/morgan/name", #""Mo""#), ("users/morgan/age", #""old""#)]), allowed: false),
        Case(
            name: "update, valid only together",
            operation: .write([("users/alexa/name", #""A""#), ("users/alexa/age", "1")]),
            auth: .user(claims: ["uid": "alexa"]), allowed: true),
        Case(
            name: "update, the parent check sees every part",
            operation: .write([("users/alexa/age", "1")]), auth: .user(claims: ["uid": "alexa"]), allowed: false),
    ]

    @Test(arguments: cases)
    func treeOutcome(_ test: Case) throws {
        let rules = try SecurityRules(text: Self.rules)
        let root = try Node(jsonString: Self.data)
        let decision: RulesDecision
        switch test.operation {
        case .read(let path):
            decision = rules.read(Path(path), auth: test.auth, root: root, now: UnixTime(millisecondsSince1970: 0))
        case .write(let changes):
            decision = rules.write(
                try changes.map { (Path($0.0), try Node(jsonString: $0.1)) }, auth: test.auth, root: root, now: .epoch)
        }
        #expect(decision.isAllowed == test.allowed, "\(decision)")
    }

    /// A wildcard names the key it matched wherever it was bound: on the written path, or in the
    /// new data below it (each level of it), with the wildcards above it bound too.
    @Test func wildcardsBoundOnThePathAndBelowItNameTheirKeys() throws {
        let rules = try SecurityRules(
            text: #"""
                {"rules": {".write": true,
                  "$a": {"$b": {"$c": {".validate": "newData.val() == $a + '/' + $b + '/' + $c"}}}}}
                """#)
        let auth = RuleAuth.user(claims: ["uid": "morgan"])
        func allowed(_ path: String, _ json: String) throws -> Bool {
            let node = try Node(jsonString: json)
            return rules.write([(Path(path), node)], auth: auth, root: .empty, now: .epoch).isAllowed
        }
        // All three on the path; two on it and one below; one on it and two below; all below.
        #expect(try allowed("p/q/r", #""p/q/r""#))
        #expect(try allowed("p/q", #"{"r": "p/q/r", "s": "p/q/s"}"#))
        #expect(try allowed("p", #"{"q": {"r": "p/q/r"}, "t": {"u": "p/t/u"}}"#))
        #expect(try allowed("", #"{"p": {"q": {"r": "p/q/r"}}}"#))
        #expect(try !allowed("p/q", #"{"r": "p/q/r", "s": "p/q/r"}"#), "s is not r")
        #expect(try !allowed("p", #"{"q": {"r": "p/r/q"}}"#), "the levels keep their order")
        #expect(try !allowed("", #"{"p": {"q": {"r": "q/p/r"}}}"#))
    }

    /// A named child matches a key with the same code units only; `$uid` binds the key as sent.
    @Test func namedChildrenAndWildcardsMatchByCodeUnits() throws {
        let rules = try SecurityRules(
            text: #"{"rules": {"caf\u00e9": {".write": false}, "$other": {".write": "auth.uid == $other"}}}"#)
        let decomposed = "cafe\u{301}"
        let asDecomposed = RuleAuth.user(claims: ["uid": .string(decomposed)])
        // The decomposed key is not the named (composed) child: the wildcard's rule applies.
        #expect(
            rules.write(
                [(Path(segments: [decomposed]), Node(.bool(true)))], auth: asDecomposed, root: .empty,
                now: UnixTime(millisecondsSince1970: 0)
            )
            .isAllowed)
        // The composed key is the named child, which nobody writes, whatever the uid's spelling.
        #expect(
            !rules.write(
                [(Path(segments: ["caf\u{E9}"]), Node(.bool(true)))], auth: asDecomposed, root: .empty,
                now: UnixTime(millisecondsSince1970: 0)
            )
            .isAllowed)
        let rulesWithout = try SecurityRules(text: #"{"rules": {"$uid": {".write": "auth.uid == $uid"}}}"#)
        #expect(
            !rulesWithout.write(
                [(Path(segments: ["caf\u{E9}"]), Node(.bool(true)))], auth: asDecomposed, root: .empty, now: .epoch
            ).isAllowed)
    }

    @Test func aDenialSaysWhereAndWhy() throws {
        let rules = try SecurityRules(text: Self.rules)
        let root = try Node(jsonString: Self.data)
        let denied = rules.write(
            [(Path("users/sam/name"), Node(.string("x")))], auth: .user(claims: ["uid": "morgan"]), root: root,
            now: .epoch)
        #expect(denied.refusal?.message == "no .write rule allows writing /users/sam/name (uid morgan)")
        // The rule to blame is the nearest .write on the way down that did not hold.
        #expect(denied.refusal?.rule?.place == "rules.json:11:20")
        #expect(denied.refusal?.rule?.path == "/users/$uid")
        #expect(denied.refusal?.rule?.kind == .write)
        let invalid = rules.write(
            [(Path("users/morgan/age"), Node(.number(-1)))], auth: .user(claims: ["uid": "morgan"]), root: root,
            now: .epoch)
        #expect(
            invalid.refusal?.message
                == "/users/morgan/age: .validate newData.isNumber() && newData.val() >= 0 does not hold")
        #expect(invalid.refusal?.rule?.place == "rules.json:14:32")
        #expect(invalid.refusal?.rule?.path == "/users/$uid/age")
        // Where nothing grants, no rule is to blame.
        let nowhere = rules.write([(Path("elsewhere"), Node(.bool(true)))], auth: .anonymous, root: root, now: .epoch)
        #expect(nowhere.refusal != nil && nowhere.refusal?.rule == nil)
    }
}
