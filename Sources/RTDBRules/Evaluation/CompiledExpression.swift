import RTDBCore

/// A rule expression made ready to run when the rules are read: a tree of closures in which
/// variables, methods, literal arrays and literal child paths are already resolved, so that an
/// evaluation looks up no names and parses nothing.
///
/// Each closure notes what it gave in the rules' coverage counts, as Firebase's emulator
/// reports every expression's values.
struct CompiledExpression: Sendable {
    /// Evaluates the expression in a scope.
    typealias Run = @Sendable (RuleScope) throws(RuleEvaluationError) -> RuleValue

    /// The expression's code.
    let run: Run

    /// Compiles `expression`, whose `$variables` are the `wildcards` above it (the topmost first),
    /// numbering its parts' coverage `slots`.
    init(_ expression: RuleExpression, wildcards: [String], slots: inout CoverageSlots) {
        run = Self.compile(expression, wildcards, &slots)
    }

    private static func compile(_ expression: RuleExpression, _ wildcards: [String], _ slots: inout CoverageSlots)
        -> Run
    {
        func compile(_ expression: RuleExpression) -> Run { Self.compile(expression, wildcards, &slots) }
        let location = slots.number(expression.location)
        switch expression {
        case .literal(let value, _):
            return noting(location) { _ throws(RuleEvaluationError) in value }
        case .regex(let pattern, _):
            return noting(location) { _ throws(RuleEvaluationError) in .pattern(pattern) }
        case .array(let elements, _):
            let values = elements.compactMap { element -> RuleValue? in
                if case .literal(let value, _) = element { return value } else { return nil }
            }
            if values.count == elements.count {
                // Literal elements still note their values, as an interpreter's would: counted
                // straight from what is known now, with no closure run for each.
                let counts = elements.flatMap { constantCounts($0, &slots) ?? [] }
                let list = RuleValue.list(values)
                return noting(location) { scope throws(RuleEvaluationError) in
                    if let tally = scope.evaluator.tally {
                        for (slot, kind) in counts { tally.record(slot, kind: kind) }
                    }
                    return list
                }
            }
            let runs = elements.map(compile)
            return noting(location) { scope throws(RuleEvaluationError) in
                var values: [RuleValue] = []
                values.reserveCapacity(runs.count)
                for run in runs { values.append(try run(scope)) }
                return .list(values)
            }
        case .variable(let name, _):
            return noting(location, variable(name, wildcards))
        case .member(let target, let name, _):
            let target = compile(target)
            let key = CodeUnitString(name)
            return noting(location) { scope throws(RuleEvaluationError) in
                try RuleEvaluator.member(try target(scope), name, key)
            }
        case .index(let target, let index, _):
            let target = compile(target)
            let index = compile(index)
            return noting(location) { scope throws(RuleEvaluationError) in
                guard case .string(let name) = try index(scope) else {
                    throw RuleEvaluationError(message: "a property name must be a string")
                }
                return try RuleEvaluator.member(try target(scope), name, CodeUnitString(name))
            }
        case .call(.variable(let variable, let variableLocation), let name, let arguments, _):
            // `newData.isString()`: the node is read where it is, no snapshot value made.
            if let method = SnapshotMethod(rawValue: name), method.readsNodeOnly,
                let node = NodeVariable(rawValue: variable)
            {
                let variableSlot = slots.number(variableLocation)
                let runs = arguments.map(compile)
                let counts = arguments.map { constantCounts($0, &slots) }
                let constant = counts.allSatisfy { $0 != nil } ? counts.flatMap { $0 ?? [] } : nil
                return noting(
                    location, nodeCall(node, variableSlot, method, runs, literalPaths(arguments), constant: constant))
            }
            return noting(
                location, call(compile(.variable(variable, variableLocation)), name, arguments.map(compile), arguments))
        case .call(let target, let name, let arguments, _):
            return noting(location, call(compile(target), name, arguments.map(compile), arguments))
        case .unary(let op, let operand, _):
            let operand = compile(operand)
            return noting(location) { scope throws(RuleEvaluationError) in
                switch (op, try operand(scope)) {
                case (.not, .bool(let value)): return .bool(!value)
                case (.negate, .number(let value)): return .number(-value)
                case (_, let value):
                    throw RuleEvaluationError(message: "\(op.rawValue) does not apply to \(value.kind)")
                }
            }
        case .binary(let op, let left, let right, _):
            return noting(location, binary(op, compile(left), compile(right)))
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            let condition = compile(condition)
            let whenTrue = compile(whenTrue)
            let whenFalse = compile(whenFalse)
            return noting(location) { scope throws(RuleEvaluationError) in
                guard case .bool(let test) = try condition(scope) else {
                    throw RuleEvaluationError(message: "?: needs a boolean condition")
                }
                return try (test ? whenTrue : whenFalse)(scope)
            }
        }
    }

    /// Notes what `body` gives (or why it failed) in the coverage counts of `slot`, when they are
    /// kept.
    private static func noting(_ slot: Int?, _ body: @escaping Run) -> Run {
        guard let slot else { return body }
        return { scope throws(RuleEvaluationError) in
            guard let tally = scope.evaluator.tally else { return try body(scope) }
            do throws(RuleEvaluationError) {
                let value = try body(scope)
                tally.record(slot, value)
                return value
            } catch {
                scope.evaluator.coverage?.recordError(slot, error.message)
                throw error
            }
        }
    }

    /// `auth`, `now`, `root`, `data`, `newData`, or a wildcard by its position above the rule.
    private static func variable(_ name: String, _ wildcards: [String]) -> Run {
        if let node = NodeVariable(rawValue: name) {
            return { scope throws(RuleEvaluationError) in .snapshot(node.snapshot(in: scope)) }
        }
        switch name {
        case "auth": return { scope throws(RuleEvaluationError) in scope.evaluator.auth }
        case "now": return { scope throws(RuleEvaluationError) in scope.evaluator.now }
        default:
            let position = wildcards.lastIndex { CodeUnitString.equal($0, name) }
            return { scope throws(RuleEvaluationError) in
                guard let position, let at = scope.variables[position], let value = scope.location.key(at: at) else {
                    throw RuleEvaluationError(message: "\(name) is not set")
                }
                return .string(value)
            }
        }
    }

    /// `target.name(arguments)`, the arguments evaluated first; a snapshot's method is resolved
    /// now, and its literal path arguments parsed now.
    private static func call(_ target: @escaping Run, _ name: String, _ runs: [Run], _ arguments: [RuleExpression])
        -> Run
    {
        let method = SnapshotMethod(rawValue: name)
        let paths = method.flatMap { $0.takesPaths ? literalPaths(arguments) : nil }
        return { scope throws(RuleEvaluationError) in
            var values: [RuleValue] = []
            if !runs.isEmpty {
                values.reserveCapacity(runs.count)
                for run in runs { values.append(try run(scope)) }
            }
            switch try target(scope) {
            case .snapshot(let snapshot):
                guard let method else { throw RuleEvaluationError(message: "a data snapshot has no method '\(name)'") }
                return try RuleEvaluator.call(snapshot, method, values, paths: paths)
            case .string(let text): return try RuleEvaluator.call(text, name, values)
            case let other: throw RuleEvaluationError(message: "\(other.kind) has no method '\(name)'")
            }
        }
    }

    /// A method that reads only a node, on `root`, `data` or `newData` (`node` finds it); the
    /// variable is counted as the snapshot it stands for.
    private static func nodeCall(
        _ node: NodeVariable, _ variableSlot: Int?, _ method: SnapshotMethod,
        _ runs: [Run], _ paths: [Path]?, constant: [(slot: Int, kind: CoverageValue.Kind)]?
    ) -> Run {
        if let paths {
            // Literal paths, their keys made already: the arguments' values are not needed, only
            // counted (from what is known now, when they are constants).
            let keys = RuleEvaluator.keys(of: paths)
            if let constant {
                let counts = constant + (variableSlot.map { [($0, .snapshot)] } ?? [])
                return { scope throws(RuleEvaluationError) in
                    if let tally = scope.evaluator.tally {
                        for (slot, kind) in counts { tally.record(slot, kind: kind) }
                    }
                    return try RuleEvaluator.call(node: node.node(in: scope), method, [], keys: keys)
                }
            }
            return { scope throws(RuleEvaluationError) in
                if let tally = scope.evaluator.tally {
                    for run in runs { _ = try run(scope) }
                    if let variableSlot { tally.record(variableSlot, kind: .snapshot) }
                }
                return try RuleEvaluator.call(node: node.node(in: scope), method, [], keys: keys)
            }
        }
        return { scope throws(RuleEvaluationError) in
            var values: [RuleValue] = []
            if !runs.isEmpty {
                values.reserveCapacity(runs.count)
                for run in runs { values.append(try run(scope)) }
            }
            if let variableSlot, let tally = scope.evaluator.tally {
                tally.record(variableSlot, kind: .snapshot)
            }
            return try RuleEvaluator.call(node: node.node(in: scope), method, values, keys: nil)
        }
    }

    /// `left op right`; `&&` and `||` evaluate `right` only when `left` does not decide.
    private static func binary(_ op: RuleOperator, _ left: @escaping Run, _ right: @escaping Run) -> Run {
        switch op {
        case .and:
            return { scope throws(RuleEvaluationError) in
                guard case .bool(let a) = try left(scope) else {
                    throw RuleEvaluationError(message: "&& needs booleans")
                }
                if !a { return .bool(false) }
                guard case .bool(let b) = try right(scope) else {
                    throw RuleEvaluationError(message: "&& needs booleans")
                }
                return .bool(b)
            }
        case .or:
            return { scope throws(RuleEvaluationError) in
                guard case .bool(let a) = try left(scope) else {
                    throw RuleEvaluationError(message: "|| needs booleans")
                }
                if a { return .bool(true) }
                guard case .bool(let b) = try right(scope) else {
                    throw RuleEvaluationError(message: "|| needs booleans")
                }
                return .bool(b)
            }
        default:
            return { scope throws(RuleEvaluationError) in
                try RuleEvaluator.apply(op, try left(scope), try right(scope))
            }
        }
    }
}
