import RTDBCore
import Testing
import WatchModel

/// A dead letter's reason, found in the server's denials: values only.
@Suite struct RulesExplanationTests {
    static func denial(_ path: String, _ message: String, rule: RulesSummary.Rule? = nil) -> RulesSummary.Denial {
        RulesSummary.Denial(
            at: UnixTime(millisecondsSince1970: 0), who: "uid morgan", path: path, operation: "set", rule: rule,
            message: message)
    }

    @Test func eachLetterGetsTheLatestDenialAtItsPathWithItsRule() {
        let rule = RulesSummary.Rule(place: "presence.rules.json:5:18", text: ".write auth.uid == $uid")
        let summary = RulesSummary(
            file: "presence.rules.json", lines: [], ruleCount: 1, rulesEvaluated: 1,
            denials: [
                Self.denial("/users/sam", "Permission denied", rule: rule),
                Self.denial("/users/sam", "an older denial"),
                Self.denial("/e\u{301}", "no rule grants a write here"),
            ], deniedTotal: 3)
        let found = summary.explanations(for: [(1, "/users/sam"), (2, "/users/kim"), (3, "/\u{e9}"), (4, "/e\u{301}")])
        #expect(found[1] == "Permission denied (.write auth.uid == $uid at presence.rules.json:5:18)")
        #expect(found[2] == nil, "no denial at its path")
        #expect(found[3] == nil, "é and e + U+0301 are two paths, as Firebase compares them")
        #expect(found[4] == "no rule grants a write here")
    }

    @Test func noSummaryExplainsNothing() {
        #expect(RulesSummary(problem: "the server answered 404").explanations(for: [(1, "/users/sam")]).isEmpty)
    }
}
