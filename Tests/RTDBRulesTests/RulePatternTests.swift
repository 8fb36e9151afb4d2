import Foundation
import RTDBCore
import Testing

@testable import RTDBRules

/// The rules' regular expressions: the documented syntax, agreement with a reference engine, and
/// a cost that no pattern can blow up.
struct RulePatternTests {
    static func matches(_ pattern: String, _ flags: String = "", _ text: String) throws -> Bool {
        try RulePattern.compile(pattern, flags: flags).get().matches(text)
    }

    @Test func theDocumentedSyntax() throws {
        let cases: [(String, String, String, Bool)] = [
            ("^[a-z]+[0-9]+$", "", "abc123", true),
            ("^abc$", "i", "ABC", true),
            ("^abc$", "", "ABC", false),
            ("b", "", "abc", true),
            ("^b", "", "abc", false),
            ("c$", "", "abc", true),
            ("a.c", "", "a-c", true),
            ("a.c", "", "a\nc", false),
            ("^\\d{3}-\\d{4}$", "", "555-1234", true),
            ("^\\d{3}-\\d{4}$", "", "555-12345", false),
            ("^\\w+@\\w+\\.com$", "", "ada@example.com", true),
            ("^(cat|dog)s?$", "", "dogs", true),
            ("^(cat|dog)s?$", "", "cow", false),
            ("^(?:ab){2,3}$", "", "ababab", true),
            ("^(?:ab){2,3}$", "", "abababab", false),
            ("^a{2,}$", "", "aaaa", true),
            ("^a{2,}$", "", "a", false),
            ("^[^0-9]*$", "", "no digits", true),
            ("^[^0-9]*$", "", "one 1", false),
            ("\\bcat\\b", "", "a cat sat", true),
            ("\\bcat\\b", "", "concatenate", false),
            ("^\\s*$", "", " \t ", true),
            ("^[\\w-]+$", "", "a-b_c", true),
            ("^a+?$", "", "aaa", true),
            ("x{", "", "x{", true),
            ("^\\u00e9$", "", "\u{E9}", true),
            ("^\\u00e9$", "", "e\u{301}", false),
            ("^[É]$", "i", "\u{E9}", true),
            ("^$", "", "", true),
            ("^[]$", "", "", false),
            ("^(a|)$", "", "", true),
            ("^(a*)*$", "", "aaa", true),
        ]
        for (pattern, flags, text, expected) in cases {
            #expect(
                try Self.matches(pattern, flags, text) == expected, "/\(pattern)/\(flags) on \(text.debugDescription)")
        }
    }

    @Test func unsupportedOrBrokenPatternsAreRefusedWhenRead() {
        for (pattern, reason) in [
            ("a(", "missing ')'"), ("a)", "unmatched ')'"), ("[a", "missing ']'"), ("*a", "nothing to repeat"),
            ("(a)\\1", "backreferences"), ("(?=a)", "lookaround"), ("a{2,1}", "out of order"),
            ("a{5000}", "over 1000"), ("(a{1000}){1000}", "too large"), ("\\q", "unknown escape"),
        ] {
            guard case .failure(let error) = RulePattern.compile(pattern, flags: "") else {
                Issue.record("/\(pattern)/ was accepted")
                continue
            }
            #expect(error.message.contains(reason), "/\(pattern)/: \(error.message)")
        }
        guard case .failure(let flag) = RulePattern.compile("a", flags: "g") else {
            Issue.record("g accepted")
            return
        }
        #expect(flag.message == "unknown regular expression flag 'g'")
    }

    /// Was: `/^(a+)+$/` took about a second per write under Foundation's backtracking engine.
    ///
    /// That stalled its namespace. Now linear: a long hostile text is answered at once.
    @Test func catastrophicPatternsTakeLinearTime() throws {
        let hostile = String(repeating: "a", count: 20_000) + "!"
        #expect(try Self.matches("^(a+)+$", "", hostile) == false)
        #expect(try Self.matches("^(a|a)*$", "", hostile) == false)
        #expect(try Self.matches("^(a|aa)+$", "", String(repeating: "a", count: 20_000)) == true)
    }

    @Test func aMatchOverItsBudgetIsAnErrorNotAnAnswer() throws {
        let pattern = try RulePattern.compile("^(a|b)*c$", flags: "").get()
        let text = Array(repeating: UInt32(UInt8(ascii: "a")), count: 1_000)
        #expect(throws: RuleEvaluationError.self) { try pattern.matches(scalars: text, budget: 500) }
        #expect(try pattern.matches(scalars: text, budget: 1_000_000) == false)
        // In a rule, the error is a refusal with its reason.
        let rules = try SecurityRules(
            text: #"{"rules": {"$x": {".write": "newData.val().matches(/^(a|b)*c$/)"}}}"#)
        let long = String(repeating: "ab", count: RulePattern.stepBudget / 4)
        let decision = rules.write(
            [(Path("x"), Node(.string(long)))], auth: .anonymous, root: .empty, now: UnixTime(millisecondsSince1970: 0))
        guard case .denied(let reason) = decision else {
            Issue.record("allowed")
            return
        }
        #expect(reason.message.contains("took over"), "\(reason)")
    }

    /// Random patterns of the supported syntax over a small alphabet give the same answers as
    /// Foundation's engine (which agrees with JavaScript on this subset).
    @Test func agreesWithAReferenceEngine() throws {
        var random = SplitMix(seed: 17)
        let atoms = ["a", "b", "c", ".", "[ab]", "[^a]", "\\d", "\\w", "1", "(a|b)", "(?:ab)", "(a|bc|)", "[a-c]"]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"]
        var compared = 0
        for _ in 0..<400 {
            var pattern = random.next(3) == 0 ? "^" : ""
            for _ in 0..<(1 + random.next(4)) {
                pattern += atoms[random.next(atoms.count)] + quantifiers[random.next(quantifiers.count)]
                if random.next(6) == 0 { pattern += "|" }
            }
            if random.next(3) == 0 { pattern += "$" }
            let flags = random.next(4) == 0 ? "i" : ""
            let reference = try NSRegularExpression(pattern: pattern, options: flags == "i" ? [.caseInsensitive] : [])
            let ours = try RulePattern.compile(pattern, flags: flags).get()
            for _ in 0..<8 {
                let text = String((0..<random.next(7)).map { _ in Array("abcAB1 ")[random.next(7)] })
                let expected = reference.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(try ours.matches(text) == expected, "/\(pattern)/\(flags) on \(text.debugDescription)")
                compared += 1
            }
        }
        #expect(compared == 3_200)
    }
}

/// A small seeded generator (SplitMix64) for the differential test.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
