/// Checks a parsed rule before it is used: every variable known, every method and property one
/// its value has, operands of the right types, and a boolean in the end.
struct RuleTypeChecker {
    /// Which rule the expression is: `newData` exists only where a write is judged.
    let kind: RuleKind
    /// The `$variables` of the wildcards above the rule.
    let variables: Set<String>

    /// Checks `expression` as the whole rule.
    func check(rule expression: RuleExpression) throws(LocatedProblem) {
        let type = try type(of: expression)
        guard type.fits(.boolean) else {
            throw LocatedProblem(
                location: expression.location,
                message: "\(kind.rawValue) must be a boolean expression, not \(type.name)")
        }
    }

    private func type(of expression: RuleExpression) throws(LocatedProblem) -> RuleType {
        switch expression {
        case .literal(let value, _):
            switch value {
            case .bool: return .boolean
            case .number: return .number
            case .string: return .string
            default: return .null
            }
        case .array(_, let location):
            throw LocatedProblem(location: location, message: "an array can only be the argument of hasChildren()")
        case .regex(_, let location):
            throw LocatedProblem(
                location: location, message: "a regular expression can only be the argument of matches()")
        case .variable(let name, let location):
            return try variable(name, at: location)
        case .member(let target, let name, let location):
            let targetType = try type(of: target)
            switch targetType {
            case .string where name == "length": return .number
            case .object, .any: return .any
            case .snapshot where RuleMethod.snapshot[name] != nil:
                throw LocatedProblem(location: location, message: "'\(name)' is a method of data snapshots: \(name)()")
            default:
                throw LocatedProblem(location: location, message: "\(targetType.name) has no property '\(name)'")
            }
        case .call(let target, let name, let arguments, let location):
            return try call(target, name, arguments, at: location)
        case .index(let target, let index, let location):
            let targetType = try type(of: target)
            let indexType = try type(of: index)
            guard targetType == .object || targetType == .any else {
                throw LocatedProblem(location: location, message: "\(targetType.name) cannot be indexed with []")
            }
            guard indexType.fits(.string) else {
                throw LocatedProblem(location: index.location, message: "a property name must be a string")
            }
            return .any
        case .unary(let op, let operand, _):
            let expected: RuleType = op == .not ? .boolean : .number
            try require(operand, expected, for: op == .not ? "!" : "-")
            return expected
        case .binary(let op, let left, let right, _):
            return try binary(op, left, right)
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            try require(condition, .boolean, for: "?:")
            let a = try type(of: whenTrue)
            let b = try type(of: whenFalse)
            return a == b ? a : .any
        }
    }

    private func variable(_ name: String, at location: SourceLocation) throws(LocatedProblem) -> RuleType {
        switch name {
        case "auth": return .object
        case "now": return .number
        case "root", "data": return .snapshot
        case "newData" where kind != .read: return .snapshot
        case "newData":
            throw LocatedProblem(
                location: location, message: "newData is not defined in .read rules (nothing is written)")
        case _ where name.hasPrefix("$") && variables.contains(name): return .string
        case _ where name.hasPrefix("$"):
            throw LocatedProblem(
                location: location, message: "unknown variable '\(name)': no wildcard above defines it")
        default:
            throw LocatedProblem(location: location, message: "unknown variable '\(name)'")
        }
    }

    private func call(
        _ target: RuleExpression, _ name: String, _ arguments: [RuleExpression], at location: SourceLocation
    )
        throws(LocatedProblem) -> RuleType
    {
        let targetType = try type(of: target)
        let method: RuleMethod?
        switch targetType {
        case .snapshot: method = RuleMethod.snapshot[name]
        case .string, .any: method = RuleMethod.string[name]
        default: method = nil
        }
        guard let method else {
            throw LocatedProblem(location: location, message: "\(targetType.name) has no method '\(name)'")
        }
        guard let signature = method.signatures.first(where: { $0.count == arguments.count }) else {
            let counts = method.signatures.map { String($0.count) }.joined(separator: " or ")
            throw LocatedProblem(
                location: location, message: "\(name)() takes \(counts) argument(s), not \(arguments.count)")
        }
        for (argument, expected) in zip(arguments, signature) {
            let argumentType: RuleType
            switch argument {
            case .array(let elements, _):
                for element in elements { try require(element, .string, for: "\(name)()") }
                argumentType = .list
            case .regex: argumentType = .pattern
            default: argumentType = try type(of: argument)
            }
            guard argumentType.fits(expected), argumentType != .any || expected != .pattern else {
                throw LocatedProblem(
                    location: argument.location, message: "\(name)() needs \(expected.name), not \(argumentType.name)")
            }
        }
        return method.result
    }

    private func binary(_ op: RuleOperator, _ left: RuleExpression, _ right: RuleExpression) throws(LocatedProblem)
        -> RuleType
    {
        switch op {
        case .and, .or:
            try require(left, .boolean, for: op.rawValue)
            try require(right, .boolean, for: op.rawValue)
            return .boolean
        case .equal, .notEqual, .identical, .notIdentical:
            for side in [left, right] {
                let sideType = try type(of: side)
                if sideType == .snapshot {
                    throw LocatedProblem(
                        location: side.location, message: "a data snapshot cannot be compared; compare its val()")
                }
            }
            return .boolean
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let a = try type(of: left)
            let b = try type(of: right)
            for (side, sideType) in [(left, a), (right, b)] where !(sideType.fits(.number) || sideType.fits(.string)) {
                throw LocatedProblem(
                    location: side.location, message: "\(op.rawValue) compares numbers or strings, not \(sideType.name)"
                )
            }
            return .boolean
        case .plus:
            let a = try type(of: left)
            let b = try type(of: right)
            if a == .number && b == .number { return .number }
            if a == .string || b == .string { return .string }
            for (side, sideType) in [(left, a), (right, b)] where !(sideType.fits(.number) || sideType.fits(.string)) {
                throw LocatedProblem(
                    location: side.location, message: "+ adds numbers or strings, not \(sideType.name)")
            }
            return .any
        case .minus, .times, .divide, .remainder:
            try require(left, .number, for: op.rawValue)
            try require(right, .number, for: op.rawValue)
            return .number
        case .not, .negate:
            return .any
        }
    }

    private func require(_ expression: RuleExpression, _ expected: RuleType, for operation: String)
        throws(LocatedProblem)
    {
        let actual = try type(of: expression)
        guard actual.fits(expected) else {
            throw LocatedProblem(
                location: expression.location, message: "\(operation) needs \(expected.name), not \(actual.name)")
        }
    }
}
