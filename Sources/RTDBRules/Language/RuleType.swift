/// The static type of a rule expression, as far as it can be known before data is there.
enum RuleType: Equatable, Sendable {
    case boolean, number, string, null, snapshot, object, list, pattern
    /// Known only when the rule runs (`data.val()`, `auth.token.admin`).
    case any

    /// What the type is called in messages.
    var name: String {
        switch self {
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .null: return "null"
        case .snapshot: return "a data snapshot"
        case .object: return "an object"
        case .list: return "an array"
        case .pattern: return "a regular expression"
        case .any: return "any value"
        }
    }

    /// Whether a value of this type may stand where `expected` is needed.
    func fits(_ expected: RuleType) -> Bool { self == expected || self == .any || expected == .any }
}

/// A method of data snapshots or strings: what it takes and what it gives.
///
/// The one table both the type check and the evaluator read, so the two cannot disagree.
struct RuleMethod: Sendable {
    /// The argument lists it accepts (`hasChildren()` and `hasChildren([...])`).
    var signatures: [[RuleType]]
    var result: RuleType

    /// The methods of `root`, `data`, `newData` and the snapshots their methods return.
    static let snapshot: [String: RuleMethod] = [
        "val": RuleMethod(signatures: [[]], result: .any),
        "child": RuleMethod(signatures: [[.string]], result: .snapshot),
        "parent": RuleMethod(signatures: [[]], result: .snapshot),
        "exists": RuleMethod(signatures: [[]], result: .boolean),
        "hasChild": RuleMethod(signatures: [[.string]], result: .boolean),
        "hasChildren": RuleMethod(signatures: [[], [.list]], result: .boolean),
        "isNumber": RuleMethod(signatures: [[]], result: .boolean),
        "isString": RuleMethod(signatures: [[]], result: .boolean),
        "isBoolean": RuleMethod(signatures: [[]], result: .boolean),
        "getPriority": RuleMethod(signatures: [[]], result: .any),
    ]

    /// The methods of strings.
    static let string: [String: RuleMethod] = [
        "contains": RuleMethod(signatures: [[.string]], result: .boolean),
        "beginsWith": RuleMethod(signatures: [[.string]], result: .boolean),
        "endsWith": RuleMethod(signatures: [[.string]], result: .boolean),
        "replace": RuleMethod(signatures: [[.string, .string]], result: .string),
        "toLowerCase": RuleMethod(signatures: [[]], result: .string),
        "toUpperCase": RuleMethod(signatures: [[]], result: .string),
        "matches": RuleMethod(signatures: [[.pattern]], result: .boolean),
    ]
}
