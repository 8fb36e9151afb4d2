/// A parsed rule expression (`auth.uid == $uid`), each part with its place in the file.
indirect enum RuleExpression: Sendable {
    /// A number, string, boolean or null written out.
    case literal(RuleValue, SourceLocation)
    /// `[a, b]`: only as an argument (`hasChildren(['a', 'b'])`).
    case array([RuleExpression], SourceLocation)
    /// `/pattern/flags`: only as the argument of `matches`.
    case regex(RulePattern, SourceLocation)
    /// `auth`, `now`, `root`, `data`, `newData` or a `$variable`.
    case variable(String, SourceLocation)
    /// `target.name`: a property, or a method when called.
    case member(RuleExpression, String, SourceLocation)
    /// `target.name(arguments)`.
    case call(RuleExpression, String, [RuleExpression], SourceLocation)
    /// `target[index]`: a property by computed name (`auth.token['email']`).
    case index(RuleExpression, RuleExpression, SourceLocation)
    /// `!x`, `-x`.
    case unary(RuleOperator, RuleExpression, SourceLocation)
    /// `a op b`.
    case binary(RuleOperator, RuleExpression, RuleExpression, SourceLocation)
    /// `condition ? a : b`.
    case conditional(RuleExpression, RuleExpression, RuleExpression, SourceLocation)

    /// Where the expression starts.
    var location: SourceLocation {
        switch self {
        case .literal(_, let location), .array(_, let location), .regex(_, let location),
            .variable(_, let location), .member(_, _, let location), .call(_, _, _, let location),
            .index(_, _, let location), .unary(_, _, let location), .binary(_, _, _, let location),
            .conditional(_, _, _, let location):
            return location
        }
    }

    /// Whether the expression reads stored data (`root`, `data`, `newData`): its outcome can then
    /// change with a write, not only with the rules or the credential.
    var readsData: Bool { mentions(["root", "data", "newData"]) }

    /// Whether any of `names` (variables) appears in the expression.
    func mentions(_ names: Set<String>) -> Bool {
        switch self {
        case .literal, .regex: return false
        case .variable(let name, _): return names.contains(name)
        case .array(let elements, _): return elements.contains { $0.mentions(names) }
        case .member(let target, _, _): return target.mentions(names)
        case .call(let target, _, let arguments, _):
            return target.mentions(names) || arguments.contains { $0.mentions(names) }
        case .index(let target, let index, _): return target.mentions(names) || index.mentions(names)
        case .unary(_, let operand, _): return operand.mentions(names)
        case .binary(_, let left, let right, _): return left.mentions(names) || right.mentions(names)
        case .conditional(let condition, let a, let b, _):
            return condition.mentions(names) || a.mentions(names) || b.mentions(names)
        }
    }
}

/// The operators of rule expressions.
enum RuleOperator: String, Sendable {
    case not = "!"
    case negate = "neg"
    case and = "&&"
    case or = "||"
    case equal = "=="
    case notEqual = "!="
    case identical = "==="
    case notIdentical = "!=="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case plus = "+"
    case minus = "-"
    case times = "*"
    case divide = "/"
    case remainder = "%"
}
