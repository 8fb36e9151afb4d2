extension RuleExpression {
    /// The expression written out again (`auth.uid == $uid`), for reports: the same tokens as the
    /// file, spaced one way, parentheses where the grouping needs them.
    var text: String {
        switch self {
        case .literal(let value, _):
            switch value {
            case .string(let string): return "'" + string.replacingOccurrences(of: "'", with: "\\'") + "'"
            default: return CoverageValue(value).description
            }
        case .array(let elements, _): return "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case .regex(let pattern, _): return "/\(pattern.source)/\(pattern.flags)"
        case .variable(let name, _): return name
        case .member(let target, let name, _): return "\(target.operandText).\(name)"
        case .call(let target, let name, let arguments, _):
            return "\(target.operandText).\(name)(" + arguments.map(\.text).joined(separator: ", ") + ")"
        case .index(let target, let index, _): return "\(target.operandText)[\(index.text)]"
        case .unary(let op, let operand, _): return (op == .not ? "!" : "-") + operand.operandText
        case .binary(let op, let left, let right, _): return "\(left.operandText) \(op.rawValue) \(right.operandText)"
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            return "\(condition.operandText) ? \(whenTrue.operandText) : \(whenFalse.operandText)"
        }
    }

    /// The text, in parentheses when it is an operation (so that it reads as one operand).
    private var operandText: String {
        switch self {
        case .binary, .conditional: return "(\(text))"
        default: return text
        }
    }

    /// The expressions directly inside this one, in the order they are written.
    var operands: [RuleExpression] {
        switch self {
        case .literal, .regex, .variable: return []
        case .array(let elements, _): return elements
        case .member(let target, _, _): return [target]
        case .call(let target, _, let arguments, _): return [target] + arguments
        case .index(let target, let index, _): return [target, index]
        case .unary(_, let operand, _): return [operand]
        case .binary(_, let left, let right, _): return [left, right]
        case .conditional(let condition, let whenTrue, let whenFalse, _): return [condition, whenTrue, whenFalse]
        }
    }
}
