import Testing

@testable import RTDBRules

/// A rules file that cannot be used is refused with the file, line and column of the problem.
struct RulesFileErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var error: String

        var testDescription: String { error }
    }

    static let cases: [Case] = [
        Case(text: #"{"rules": {".read": tru}}"#, error: "1:21: unexpected 'tru'"),
        // Found by fuzzing: this nesting overflowed the parser's stack.
        Case(
            text: #"{"rules": {".read": ""# + String(repeating: "(", count: 200) + #"true"}}"#,
            error: "1:86: the rule nests deeper than 64 levels"),
        Case(text: "{\"rules\": {\n  \".read\": true,\n}", error: "3:2: expected '}', found the end of the file"),
        Case(text: #"{"rules": {}} x"#, error: "1:15: unexpected 'x' after the end of the rules"),
        Case(text: "{\"rules\": {} /* never closed", error: "1:14: unterminated comment"),
        Case(text: #"{"rulez": {}}"#, error: #"1:1: the rules file needs a top-level "rules" object"#),
        Case(text: #"{"rules": {}, "extra": 1}"#, error: #"1:15: unknown top-level key 'extra' (only "rules")"#),
        Case(
            text: #"{"rules": {".reed": true}}"#,
            error: "1:12: unknown rule '.reed' (expected .read, .write, .validate or .indexOn)"),
        Case(
            text: #"{"rules": {".read": 1}}"#,
            error: "1:21: .read must be a string expression or a boolean, not a number"),
        Case(text: #"{"rules": {"a": true}}"#, error: "1:17: the rules of 'a' must be an object, not a boolean"),
        Case(text: #"{"rules": {"$a": {}, "$b": {}}}"#, error: "1:22: '$b' and '$a': one wildcard per level"),
        Case(text: #"{"rules": {"$a": {"$a": {}}}}"#, error: "1:19: '$a' is already the name of a wildcard above"),
        Case(text: #"{"rules": {".read": true, ".read": false}}"#, error: "1:27: the key '.read' appears twice"),
        Case(
            text: "{\"rules\": {\n  \"users\": {\n    \".read\": \"auth.uid == uid\"\n  }\n}}",
            error: "3:27: unknown variable 'uid'"),
        Case(
            text: #"{"rules": {".read": "$uid == 'a'"}}"#,
            error: "1:22: unknown variable '$uid': no wildcard above defines it"),
        Case(
            text: #"{"rules": {".read": "newData.exists()"}}"#,
            error: "1:22: newData is not defined in .read rules (nothing is written)"),
        Case(text: #"{"rules": {".read": "1 + 2"}}"#, error: "1:24: .read must be a boolean expression, not a number"),
        Case(text: #"{"rules": {".read": "data.size() > 1"}}"#, error: "1:27: a data snapshot has no method 'size'"),
        Case(text: #"{"rules": {".read": "data.val"}}"#, error: "1:27: 'val' is a method of data snapshots: val()"),
        Case(
            text: #"{"rules": {".read": "data == 1"}}"#,
            error: "1:22: a data snapshot cannot be compared; compare its val()"),
        Case(
            text: #"{"rules": {".read": "'a'.matches('a')"}}"#,
            error: "1:34: matches() needs a regular expression, not a string"),
        Case(
            text: #"{"rules": {".read": "'a'.matches(/a(/)"}}"#,
            error: "1:34: invalid regular expression /a(/: missing ')'"),
        Case(text: #"{"rules": {".read": "'a'.matches(/[a/)"}}"#, error: "1:34: unterminated regular expression"),
        Case(text: #"{"rules": {".read": "data.child()"}}"#, error: "1:27: child() takes 1 argument(s), not 0"),
        Case(text: #"{"rules": {".read": "auth.uid =="}}"#, error: "1:33: expected a value, found end of the rule"),
        Case(text: #"{"rules": {".read": "(true"}}"#, error: "1:27: expected ')', found end of the rule"),
        Case(text: #"{"rules": {".read": "true && 1"}}"#, error: "1:30: && needs a boolean, not a number"),
        Case(text: #"{"rules": {".read": "now.length > 1"}}"#, error: "1:26: a number has no property 'length'"),
        Case(text: #"{"rules": {".read": "'abc' # 1"}}"#, error: "1:28: unexpected character '#'"),
        // An escaped quote inside the string still points at the right column.
        Case(text: #"{"rules": {".read": "auth.uid == \"x\" && nope"}}"#, error: "1:43: unknown variable 'nope'"),
    ]

    @Test(arguments: cases)
    func refusedWithItsPlace(_ test: Case) {
        #expect(throws: RulesError(file: "db.rules.json", location: location(test.error), message: message(test.error)))
        {
            try SecurityRules(text: test.text, file: "db.rules.json")
        }
    }

    @Test func theMessageReadsLikeACompilers() {
        #expect(
            RulesError(
                file: "rules.json", location: RTDBRules.SourceLocation(line: 3, column: 26),
                message: "unknown variable 'uid'"
            )
            .description == "rules.json:3:26: unknown variable 'uid'")
    }

    private func location(_ error: String) -> RTDBRules.SourceLocation {
        let parts = error.split(separator: ":", maxSplits: 2)
        return RTDBRules.SourceLocation(line: Int(parts[0])!, column: Int(parts[1])!)
    }

    private func message(_ error: String) -> String {
        String(error.split(separator: ":", maxSplits: 2)[2].dropFirst())
    }
}
