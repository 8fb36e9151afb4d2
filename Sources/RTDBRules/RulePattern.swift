import Foundation

/// A regular expression literal of a rule (`/^[a-z]+$/i`), compiled once when the rules are read.
struct RulePattern: Sendable {
    /// The pattern as written between the slashes.
    let source: String
    /// The flags after the closing slash.
    let flags: String
    private let expression: NSRegularExpression

    /// Compiles a pattern; `nil` with the reason when it is not a valid expression or has flags
    /// other than `i`.
    static func compile(_ source: String, flags: String) -> Result<RulePattern, RulePatternError> {
        var options: NSRegularExpression.Options = []
        for flag in flags {
            guard flag == "i" else {
                return .failure(RulePatternError(message: "unknown regular expression flag '\(flag)'"))
            }
            options.insert(.caseInsensitive)
        }
        do {
            let expression = try NSRegularExpression(pattern: source, options: options)
            return .success(RulePattern(source: source, flags: flags, expression: expression))
        } catch {
            return .failure(RulePatternError(message: "invalid regular expression /\(source)/"))
        }
    }

    /// Whether the pattern matches somewhere in `text` (anchors as written).
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// Why a regular expression literal was refused.
struct RulePatternError: Error {
    var message: String
}
