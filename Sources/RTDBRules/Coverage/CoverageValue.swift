import RTDBCore

/// What one evaluation of a rule expression gave, as the coverage report counts it.
///
/// Strings and numbers are counted by kind, never kept: they may be what a user wrote (a device's
/// name, a uid), and the report is read by others than the writer.
public enum CoverageValue: Sendable, Hashable, CustomStringConvertible {
    /// Null or a boolean, kept as it is.
    case value(JSONValue)
    /// A string, counted without its text.
    case string
    /// A number, counted without its value.
    case number
    /// A data snapshot (`data`, `root.child('x')`), counted without its path: the paths a rule
    /// sees are as many as the data's keys, and hashing each would cost every request.
    case snapshot
    /// An object (`auth`, `auth.token`), counted without its contents.
    case object
    /// A list or a regular expression (only as arguments).
    case other
    /// The evaluation failed (the rule then counts as false), and why.
    case error(String)

    init(_ value: RuleValue) {
        switch value {
        case .null: self = .value(.null)
        case .bool(let flag): self = .value(.bool(flag))
        case .number: self = .number
        case .string: self = .string
        case .snapshot: self = .snapshot
        case .object: self = .object
        case .list, .pattern: self = .other
        }
    }

    /// `true`, `a string`, `a data snapshot`, `an object`, `error: …`.
    public var description: String {
        switch self {
        case .value(let json): return json.jsonString
        case .string: return "a string"
        case .number: return "a number"
        case .snapshot: return "a data snapshot"
        case .object: return "an object"
        case .other: return "a list or pattern"
        case .error(let message): return "error: \(message)"
        }
    }
}
