import Foundation
import RTDBCore

/// Why a rule could not be evaluated (the rule then counts as false, as Firebase treats it).
struct RuleEvaluationError: Error {
    var message: String
}

/// Evaluates rule expressions against the data, the credential and the time.
struct RuleEvaluator {
    /// The `auth` variable: null for a signed-out client.
    let auth: JSONValue
    /// `now`: the server's time.
    let now: UnixTime
    /// `root` (the data before the write).
    let root: Node
    /// The data as it would be after the write (nil for reads).
    let newRoot: Node?
    /// Where each evaluation is noted for the coverage report; nil notes nothing.
    var tally: CoverageTally? = nil

    /// Whether the rule holds at `path` with the wildcard values `variables`; an error counts as
    /// false and is returned for the log.
    ///
    /// `newData` is the node at `path` as it would be after the write, when the caller has it at
    /// hand (the checks of `.validate` follow the new data down): no walk from the root then.
    func holds(_ expression: RuleExpression, at path: Path, variables: [String: String], newData: Node? = nil)
        -> Result<Bool, RuleEvaluationError>
    {
        do throws(RuleEvaluationError) {
            let value = try evaluate(expression, path: path, variables: variables, newData: newData)
            guard case .bool(let result) = value else {
                throw RuleEvaluationError(message: "the rule gave \(value.kind), not a boolean")
            }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// Evaluates `expression`, noting what it gave in the tally.
    private func evaluate(_ expression: RuleExpression, path: Path, variables: [String: String], newData: Node?)
        throws(RuleEvaluationError)
        -> RuleValue
    {
        guard let tally else { return try compute(expression, path: path, variables: variables, newData: newData) }
        do throws(RuleEvaluationError) {
            let value = try compute(expression, path: path, variables: variables, newData: newData)
            tally.record(expression.location, value)
            return value
        } catch {
            tally.recordError(expression.location, error.message)
            throw error
        }
    }

    private func compute(_ expression: RuleExpression, path: Path, variables: [String: String], newData: Node?)
        throws(RuleEvaluationError)
        -> RuleValue
    {
        func eval(_ expression: RuleExpression) throws(RuleEvaluationError) -> RuleValue {
            try evaluate(expression, path: path, variables: variables, newData: newData)
        }
        switch expression {
        case .literal(let value, _): return value
        case .regex(let pattern, _): return .pattern(pattern)
        case .array(let elements, _):
            var values: [RuleValue] = []
            for element in elements { values.append(try eval(element)) }
            return .list(values)
        case .variable(let name, _):
            switch name {
            case "auth": return auth == .null ? .null : .object(auth)
            case "now": return .number(Double(now.millisecondsSince1970))
            case "root": return .snapshot(RuleSnapshot(root: root, path: .root))
            case "data": return .snapshot(RuleSnapshot(root: root, path: path))
            case "newData":
                let newRoot = newRoot ?? root
                return .snapshot(
                    newData.map { RuleSnapshot(root: newRoot, path: path, node: $0) }
                        ?? RuleSnapshot(root: newRoot, path: path))
            default:
                guard let value = variables[name] else { throw RuleEvaluationError(message: "\(name) is not set") }
                return .string(value)
            }
        case .member(let target, let name, _):
            return try member(try eval(target), name)
        case .index(let target, let index, _):
            guard case .string(let name) = try eval(index) else {
                throw RuleEvaluationError(message: "a property name must be a string")
            }
            return try member(try eval(target), name)
        case .call(let target, let name, let arguments, _):
            var values: [RuleValue] = []
            for argument in arguments { values.append(try eval(argument)) }
            return try call(try eval(target), name, values)
        case .unary(let op, let operand, _):
            switch (op, try eval(operand)) {
            case (.not, .bool(let value)): return .bool(!value)
            case (.negate, .number(let value)): return .number(-value)
            case (_, let value): throw RuleEvaluationError(message: "\(op.rawValue) does not apply to \(value.kind)")
            }
        case .binary(.and, let left, let right, _):
            guard case .bool(let a) = try eval(left) else { throw RuleEvaluationError(message: "&& needs booleans") }
            if !a { return .bool(false) }
            guard case .bool(let b) = try eval(right) else { throw RuleEvaluationError(message: "&& needs booleans") }
            return .bool(b)
        case .binary(.or, let left, let right, _):
            guard case .bool(let a) = try eval(left) else { throw RuleEvaluationError(message: "|| needs booleans") }
            if a { return .bool(true) }
            guard case .bool(let b) = try eval(right) else { throw RuleEvaluationError(message: "|| needs booleans") }
            return .bool(b)
        case .binary(let op, let left, let right, _):
            return try RuleEvaluator.apply(op, try eval(left), try eval(right))
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            guard case .bool(let test) = try eval(condition) else {
                throw RuleEvaluationError(message: "?: needs a boolean condition")
            }
            return try eval(test ? whenTrue : whenFalse)
        }
    }

    private func member(_ target: RuleValue, _ name: String) throws(RuleEvaluationError) -> RuleValue {
        switch target {
        case .string(let text) where name == "length": return .number(Double(text.utf16.count))
        case .object(let object):
            if case .object(let members) = object {
                return members[CodeUnitString(name)].map(RuleValue.init(json:)) ?? .null
            }
            if case .array(let elements) = object, let position = Int(name), elements.indices.contains(position) {
                return RuleValue(json: elements[position])
            }
            return .null
        default: throw RuleEvaluationError(message: "\(target.kind) has no property '\(name)'")
        }
    }

    private func call(_ target: RuleValue, _ name: String, _ arguments: [RuleValue]) throws(RuleEvaluationError)
        -> RuleValue
    {
        switch target {
        case .snapshot(let snapshot): return try RuleEvaluator.call(snapshot, name, arguments)
        case .string(let text): return try RuleEvaluator.call(text, name, arguments)
        default: throw RuleEvaluationError(message: "\(target.kind) has no method '\(name)'")
        }
    }
}
