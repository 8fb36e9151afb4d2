import RTDBCore
import Testing

@testable import RTDBRules

/// Rule expressions and their outcomes, one table: each is the `.write` rule of `/items/$id`, and
/// the write puts `newValue` at `/items/a` over `data` (the whole tree before it).
struct RuleExpressionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var newValue: String = "1"
        var data: String = "null"
        var auth: RuleAuth = .user(claims: ["uid": "a"])
        var allowed: Bool

        var testDescription: String { "\(rule) → \(allowed)" }
    }

    static let morgan = RuleAuth.user(claims: ["uid": "morgan", "email": "m@example.com", "admin": true])
    static let tree = #"{"items": {"a": 5, "b": "text"}, "users": {"a": {"role": "editor"}}, "flags": {"open": true}}"#

    static let cases: [Case] = [
        // Literals and logic.
        Case(rule: "true", allowed: true),
        Case(rule: "false", allowed: false),
        Case(rule: "true && false", allowed: false),
        Case(rule: "true || false", allowed: true),
        Case(rule: "!false", allowed: true),
        Case(rule: "!(true && true)", allowed: false),
        Case(rule: "false || false || true", allowed: true),
        Case(rule: "1 < 2 ? true : false", allowed: true),
        Case(rule: "1 > 2 ? true : 1 == 1", allowed: true),
        // Arithmetic and comparison (JavaScript precedence).
        Case(rule: "1 + 2 * 3 == 7", allowed: true),
        Case(rule: "(1 + 2) * 3 == 9", allowed: true),
        Case(rule: "10 % 4 == 2", allowed: true),
        Case(rule: "7 / 2 == 3.5", allowed: true),
        Case(rule: "-3 < 0", allowed: true),
        Case(rule: "2 >= 2 && 2 <= 2", allowed: true),
        Case(rule: "'a' < 'b'", allowed: true),
        Case(rule: "1 === 1 && 1 !== 2", allowed: true),
        Case(rule: "'1' == 1", allowed: false),
        Case(rule: "1 / 0 == 1", allowed: false),
        // Strings.
        Case(rule: "'abc'.length == 3", allowed: true),
        Case(rule: "'abc' + 1 == 'abc1'", allowed: true),
        Case(rule: "'Hello'.toLowerCase() == 'hello'", allowed: true),
        Case(rule: "'Hello'.toUpperCase() == 'HELLO'", allowed: true),
        Case(rule: "'a.b.c'.replace('.', '-') == 'a-b-c'", allowed: true),
        Case(rule: "'presence'.contains('sen')", allowed: true),
        Case(rule: "'presence'.beginsWith('pre') && 'presence'.endsWith('nce')", allowed: true),
        Case(rule: "'presence'.beginsWith('sen')", allowed: false),
        Case(rule: "'abc123'.matches(/^[a-z]+[0-9]+$/)", allowed: true),
        Case(rule: "'ABC'.matches(/^abc$/i)", allowed: true),
        Case(rule: "'ABC'.matches(/^abc$/)", allowed: false),
        // auth.
        Case(rule: "auth != null", allowed: true),
        Case(rule: "auth != null", auth: .anonymous, allowed: false),
        Case(rule: "auth == null", auth: .anonymous, allowed: true),
        Case(rule: "auth.uid == 'a'", allowed: true),
        Case(rule: "auth.uid == $id", allowed: true),
        Case(rule: "auth.uid == $id", auth: .user(claims: ["uid": "b"]), allowed: false),
        Case(rule: "auth.uid == $id", auth: .anonymous, allowed: false),
        Case(rule: "auth.token.admin == true", auth: morgan, allowed: true),
        Case(rule: "auth.token.email.endsWith('@example.com')", auth: morgan, allowed: true),
        Case(rule: "auth.token['email'] == 'm@example.com'", auth: morgan, allowed: true),
        Case(rule: "auth.provider == 'custom'", allowed: true),
        Case(rule: "auth.token.admin == true", allowed: false),
        // now.
        Case(rule: "now > 1000", allowed: true),
        Case(rule: "newData.val() <= now", newValue: "1000", allowed: true),
        // newData against data.
        Case(rule: "newData.val() == 1", allowed: true),
        Case(rule: "newData.isNumber()", allowed: true),
        Case(rule: "newData.isString()", newValue: #""x""#, allowed: true),
        Case(rule: "newData.isBoolean()", newValue: "false", allowed: true),
        Case(rule: "newData.isNumber()", newValue: #""x""#, allowed: false),
        Case(rule: "!data.exists()", allowed: true),
        Case(rule: "!data.exists()", data: tree, allowed: false),
        Case(rule: "data.val() == 5 && newData.val() == 6", newValue: "6", data: tree, allowed: true),
        Case(rule: "newData.val() > data.val()", newValue: "6", data: tree, allowed: true),
        Case(rule: "newData.val() > data.val()", newValue: "4", data: tree, allowed: false),
        Case(rule: "!newData.exists()", newValue: "null", data: tree, allowed: true),
        Case(rule: "newData.val().length < 5", newValue: #""four""#, allowed: true),
        Case(rule: "newData.val().length < 5", newValue: #""fives""#, allowed: false),
        Case(rule: "newData.hasChildren()", newValue: #"{"x": 1}"#, allowed: true),
        Case(rule: "newData.hasChildren()", newValue: "1", allowed: false),
        Case(rule: "newData.hasChildren(['name', 'age'])", newValue: #"{"name": "x", "age": 3}"#, allowed: true),
        Case(rule: "newData.hasChildren(['name', 'age'])", newValue: #"{"name": "x"}"#, allowed: false),
        Case(rule: "newData.hasChild('name')", newValue: #"{"name": "x"}"#, allowed: true),
        Case(rule: "newData.child('name').val() == 'x'", newValue: #"{"name": "x"}"#, allowed: true),
        Case(rule: "newData.child('a/b').val() == 2", newValue: #"{"a": {"b": 2}}"#, allowed: true),
        Case(rule: "newData.getPriority() == 3", newValue: #"{".value": 1, ".priority": 3}"#, allowed: true),
        // root, parent and sibling data.
        Case(rule: "root.child('flags/open').val() == true", data: tree, allowed: true),
        Case(rule: "root.child('users/' + auth.uid + '/role').val() == 'editor'", data: tree, allowed: true),
        Case(rule: "root.child('users').child(auth.uid).exists()", data: tree, allowed: true),
        Case(rule: "data.parent().child('b').val() == 'text'", data: tree, allowed: true),
        Case(rule: "newData.parent().child('a').val() == 1", data: tree, allowed: true),
        Case(rule: "data.parent().parent().child('flags').hasChild('open')", data: tree, allowed: true),
        // Strings compare by code units, as Firebase's do: canonically equivalent is not equal.
        Case(rule: "auth.uid == 'caf\u{E9}'", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: false),
        Case(rule: "auth.uid != 'caf\u{E9}'", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: true),
        Case(rule: "auth.uid == 'Kate'", auth: .user(claims: ["uid": "\u{212A}ate"]), allowed: false),
        Case(rule: "auth.uid == 'cafe\u{301}'", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: true),
        Case(rule: "auth.uid.beginsWith('caf\u{E9}')", auth: .user(claims: ["uid": "cafe\u{301}!"]), allowed: false),
        Case(rule: "auth.uid.endsWith('\u{E9}')", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: false),
        Case(rule: "auth.uid.contains('\u{E9}')", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: false),
        Case(rule: "auth.uid.contains('e\u{301}')", auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: true),
        Case(
            rule: "auth.uid.replace('e\u{301}', 'E') == 'cafE' && auth.uid.replace('\u{E9}', 'E') == auth.uid",
            auth: .user(claims: ["uid": "cafe\u{301}"]), allowed: true),
        Case(rule: "'a-b-a'.replace('a', 'x') == 'x-b-x'", allowed: true),
        // An error is a refusal, never a crash or an allow.
        Case(rule: "data.val() > 3", data: "null", allowed: false),
        Case(rule: "auth.uid.length > 0", auth: .anonymous, allowed: false),
        Case(rule: "root.parent().exists()", allowed: false),
        Case(rule: "newData.val() + 1 == 2", newValue: #"{"x": 1}"#, allowed: false),
    ]

    @Test(arguments: cases)
    func expressionOutcome(_ test: Case) throws {
        let rules = try SecurityRules(
            text: #"{"rules": {"items": {"$id": {".write": "\#(test.rule.replacing("\"", with: "\\\""))"}}}}"#)
        let root = try Node(jsonString: test.data)
        let decision = rules.write(
            [(Path("items/a"), try Node(jsonString: test.newValue))], auth: test.auth, root: root,
            now: UnixTime(millisecondsSince1970: 1_800_000_000_000))
        #expect(decision.isAllowed == test.allowed, "\(decision)")
    }
}
