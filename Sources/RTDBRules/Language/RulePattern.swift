/// A regular expression literal of a rule (`/^[a-z]+$/i`), compiled once when the rules are read.
///
/// Matching takes time linear in the text (a Pike VM over the compiled program, no backtracking,
/// as RE2 does), so no pattern can stall a namespace: `/^(a+)+$/` against forty `a`s and a `!`
/// takes microseconds, where a backtracking engine (Foundation's, ICU's) takes minutes. One
/// match is also bounded by ``stepBudget``. The syntax is the subset Firebase's rules document:
/// literals and escapes, `.`, classes (`[a-z]`, `[^…]`, `\d \w \s \D \W \S`), anchors (`^ $ \b
/// \B`), groups (`(…)`, `(?:…)`), `|`, and the quantifiers `* + ? {n} {n,} {n,m}` (a lazy `?`
/// after one changes nothing for a yes/no match); the only flag is `i`. Backreferences and
/// lookaround are refused when the rules are read. (Written here, not taken from a library: no
/// package in reach matches in linear time, and Foundation's engine backtracks.)
struct RulePattern: Sendable {
    /// The pattern as written between the slashes.
    let source: String
    /// The flags after the closing slash.
    let flags: String
    /// The compiled program.
    let program: [RegexInstruction]
    /// Whether letters match either case (`i`).
    let caseInsensitive: Bool

    /// The most thread steps (text positions × live program states) one match may take.
    ///
    /// Over it the rule fails with a reason, as any rule that errs does. A 10 MB string against a small
    /// pattern fits; an enormous repetition count over a long text does not.
    static let stepBudget = 10_000_000
    /// The largest compiled program: `{n,m}` copies its operand, so counts are bounded too.
    static let maxProgramSize = 10_000

    /// Compiles a pattern; `nil` with the reason when it is not a valid expression, uses what is
    /// not supported, or has flags other than `i`.
    static func compile(_ source: String, flags: String) -> Result<RulePattern, RulePatternError> {
        for flag in flags where flag != "i" {
            return .failure(RulePatternError(message: "unknown regular expression flag '\(flag)'"))
        }
        let caseInsensitive = flags.contains("i")
        do {
            var parser = RegexParser(source: source)
            let tree = try parser.parse()
            var compiler = RegexCompiler(limit: maxProgramSize)
            try compiler.emit(tree)
            try compiler.append(.match)
            return .success(
                RulePattern(source: source, flags: flags, program: compiler.program, caseInsensitive: caseInsensitive))
        } catch {
            return .failure(RulePatternError(message: "invalid regular expression /\(source)/: \(error.message)"))
        }
    }
}

/// Why a regular expression literal was refused.
struct RulePatternError: Error {
    var message: String
}
