import RTDBCore

/// What one evaluation of a rule expression gave, as the coverage report counts it.
public enum CoverageValue: Sendable, Hashable, CustomStringConvertible {
    /// A value a client could write: null, a boolean, a number or a string.
    case value(JSONValue)
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
        case .number(let number):
            self = .value(number == number.rounded() && abs(number) < 9e15 ? .int(Int64(number)) : .double(number))
        case .string(let text): self = .value(.string(text))
        case .snapshot: self = .snapshot
        case .object: self = .object
        case .list, .pattern: self = .other
        }
    }

    /// `true`, `"morgan"`, `data at /users/morgan`, `an object`, `error: …`.
    public var description: String {
        switch self {
        case .value(let json): return json.jsonString
        case .snapshot: return "a data snapshot"
        case .object: return "an object"
        case .other: return "a list or pattern"
        case .error(let message): return "error: \(message)"
        }
    }
}
