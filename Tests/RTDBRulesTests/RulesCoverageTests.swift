import RTDBCore
import RTDBRules
import Testing

/// Each expression's evaluations and values, counted per set of rules.
@Suite struct RulesCoverageTests {
    static let text = """
        {"rules": {
          "users": {
            "$uid": {
              ".read": "auth != null",
              ".write": "auth.uid == $uid",
              ".validate": "newData.hasChildren(['name'])"
            }
          }
        }}
        """

    static func write(_ rules: SecurityRules, _ user: String, at path: String, _ data: JSONValue) throws
        -> RulesDecision
    {
        rules.write(
            [(Path(path), try Node(json: data))], auth: .user(claims: ["uid": .string(user)]), root: .empty, now: .epoch
        )
    }

    static func rule(_ report: RulesCoverageReport, _ kind: RuleKind) throws -> RulesCoverageReport.Rule {
        try #require(report.rules.first { $0.reference.kind == kind })
    }

    @Test func eachExpressionCountsItsEvaluationsAndValues() throws {
        let rules = try SecurityRules(text: Self.text)
        #expect(try Self.write(rules, "morgan", at: "users/morgan", ["name": "M"]).isAllowed)
        #expect(try !Self.write(rules, "morgan", at: "users/sam", ["name": "S"]).isAllowed)
        #expect(try !Self.write(rules, "morgan", at: "users/morgan", ["age": 3]).isAllowed)

        let report = rules.coverageReport()
        #expect(report.rules.map(\.reference.kind) == [.read, .write, .validate], "in the file's order")
        let write = try Self.rule(report, .write)
        #expect(write.reference.path == "/users/$uid")
        #expect(write.reference.place == "rules.json:5:18")
        #expect(write.expression.text == "auth.uid == $uid")
        #expect(write.expression.evaluations == 3)
        #expect(write.expression.count(of: .value(true)) == 2 && write.expression.count(of: .value(false)) == 1)
        // Inside it: `auth.uid` and `$uid` gave strings, counted by kind (never kept: they may be data).
        let (left, right) = (write.expression.children[0], write.expression.children[1])
        #expect(left.text == "auth.uid" && left.count(of: .string) == 3)
        #expect(left.children.first?.text == "auth" && left.children.first?.count(of: .object) == 3)
        #expect(right.text == "$uid" && right.count(of: .string) == 3)
        // The .validate ran for the two writes the .write allowed; the .read never.
        let validate = try Self.rule(report, .validate)
        #expect(validate.expression.evaluations == 2 && validate.expression.count(of: .value(false)) == 1)
        #expect(validate.expression.children.first?.count(of: .snapshot) == 2)
        // The literal list and its element are counted at each evaluation too (counted from what
        // is known when the rules are read, with nothing evaluated again).
        let list = try #require(validate.expression.children.last)
        #expect(list.text == "['name']" && list.evaluations == 2 && list.count(of: .other) == 2, "\(list)")
        #expect(list.children.first?.text == "'name'" && list.children.first?.count(of: .string) == 2)
        #expect(try Self.rule(report, .read).expression.evaluations == 0)
    }

    @Test func anErrorIsCountedAsWhatTheExpressionGave() throws {
        let rules = try SecurityRules(text: #"{"rules": {"n": {".write": "newData.val() / 0 > 1"}}}"#)
        #expect(
            !rules.write([(Path("n"), Node(.number(4)))], auth: .anonymous, root: .empty, now: .epoch).isAllowed)
        let rule = try Self.rule(rules.coverageReport(), .write)
        #expect(rule.expression.count(of: .error("division by zero")) == 1)
        #expect(rule.expression.children.first?.count(of: .error("division by zero")) == 1)
    }

    @Test func newRulesAndDryRunsCountNothingOld() throws {
        let rules = try SecurityRules(text: Self.text)
        _ = try Self.write(rules, "morgan", at: "users/morgan", ["name": "M"])
        _ = try Self.write(rules.unrecorded, "morgan", at: "users/morgan", ["name": "M"])
        #expect(try Self.rule(rules.coverageReport(), .write).expression.evaluations == 1, "the dry run is not counted")
        let again = try SecurityRules(text: Self.text)
        #expect(try Self.rule(again.coverageReport(), .write).expression.evaluations == 0)
    }

    @Test func stringsAndNumbersAreCountedByKindNeverKept() throws {
        let rules = try SecurityRules(
            text:
                #"{"rules": {"$uid": {".write": "newData.child('name').val() != 'x' && newData.child('n').val() > 1"}}}"#
        )
        let secret = "a device name only its user may read"
        _ = rules.write(
            [(Path("u1"), try Node(json: ["name": .string(secret), "n": 987_654_321]))], auth: .anonymous, root: .empty,
            now: .epoch)
        let report = rules.coverageReport()
        #expect(!report.json.jsonString.contains(secret) && !report.json.jsonString.contains("987654321"))
        let write = try Self.rule(report, .write).expression
        let name = write.children[0].children[0]
        #expect(name.text == "newData.child('name').val()" && name.count(of: .string) == 1)
        #expect(write.children[1].children[0].count(of: .number) == 1)
    }

    @Test func theReportReadsBackFromItsJSON() throws {
        let rules = try SecurityRules(text: Self.text, file: "database.rules.json")
        _ = try Self.write(rules, "morgan", at: "users/sam", ["name": "S"])
        let refusal = try #require(try Self.write(rules, "morgan", at: "users/sam", ["name": "S"]).refusal)
        rules.coverage?.recordDenial(
            RuleDenial(
                at: UnixTime(millisecondsSince1970: 1_700_000_000_000), who: "uid morgan", path: Path("users/sam"),
                operation: .set, refusal: refusal))
        let report = rules.coverageReport()
        let text = report.json.jsonString
        #expect(try RulesCoverageReport(json: JSONParser.parse(text)) == report)
        #expect(report.denials.first?.refusal.rule?.place == "database.rules.json:5:18")
        #expect(throws: CoverageReportError.self) { try RulesCoverageReport(json: ["rules": 1]) }
    }
}
