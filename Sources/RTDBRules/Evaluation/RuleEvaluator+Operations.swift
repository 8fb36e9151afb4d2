import RTDBCore

extension RuleEvaluator {
    /// The methods of data snapshots (their signatures are ``RuleMethod/snapshot``); `paths` are
    /// the path arguments already parsed, when they were written out.
    static func call(_ snapshot: RuleSnapshot, _ method: SnapshotMethod, _ arguments: [RuleValue], paths: [Path]?)
        throws(RuleEvaluationError) -> RuleValue
    {
        switch method {
        case .child:
            return .snapshot(snapshot.child(try path(paths, arguments, method)))
        case .parent:
            guard let parent = snapshot.path.parent else {
                throw RuleEvaluationError(message: "the root has no parent")
            }
            return .snapshot(RuleSnapshot(root: snapshot.root, path: parent))
        default:
            return try call(node: snapshot.node, method, arguments, keys: paths.map(keys(of:)))
        }
    }

    /// The methods of a snapshot that read only its node (all but `child` and `parent`, which
    /// ``SnapshotMethod/readsNodeOnly`` tells).
    static func call(node: Node, _ method: SnapshotMethod, _ arguments: [RuleValue], keys: [[ChildKey]]?)
        throws(RuleEvaluationError) -> RuleValue
    {
        switch method {
        case .val: return RuleSnapshot.value(of: node)
        case .exists: return .bool(!node.isEmpty)
        case .hasChild:
            return .bool(!descendant(of: node, try pathKeys(keys, arguments, method)).isEmpty)
        case .hasChildren:
            // Literal paths come as their keys, without the arguments' values.
            if let keys { return .bool(keys.allSatisfy { !descendant(of: node, $0).isEmpty }) }
            guard let first = arguments.first else { return .bool(!node.isLeaf && !node.isEmpty) }
            guard case .list(let names) = first else {
                throw RuleEvaluationError(message: "hasChildren() needs an array of strings")
            }
            for name in names {
                guard case .string(let relative) = name else {
                    throw RuleEvaluationError(message: "hasChildren() needs an array of strings")
                }
                if node.child(at: Path(relative)).isEmpty { return .bool(false) }
            }
            return .bool(true)
        case .isNumber: return .bool(isLeaf(node) { if case .number = $0 { true } else { false } })
        case .isString: return .bool(isLeaf(node) { if case .string = $0 { true } else { false } })
        case .isBoolean: return .bool(isLeaf(node) { if case .bool = $0 { true } else { false } })
        case .getPriority: return node.priority.map { RuleValue(json: $0.json) } ?? .null
        case .child, .parent: throw RuleEvaluationError(message: "\(method.rawValue)() needs a snapshot's place")
        }
    }

    /// The path argument's keys: made already, or made now.
    private static func pathKeys(_ made: [[ChildKey]]?, _ arguments: [RuleValue], _ method: SnapshotMethod)
        throws(RuleEvaluationError) -> [ChildKey]
    {
        if let path = made?.first { return path }
        return keys(of: Path(try string(arguments, method.rawValue)))
    }

    /// The path argument: parsed already, or parsed now.
    private static func path(_ paths: [Path]?, _ arguments: [RuleValue], _ method: SnapshotMethod)
        throws(RuleEvaluationError) -> Path
    {
        if let path = paths?.first { return path }
        return Path(try string(arguments, method.rawValue))
    }

    /// Each path's keys, made once for the calls that read nodes by them.
    static func keys(of paths: [Path]) -> [[ChildKey]] {
        paths.map(keys(of:))
    }

    /// A path's keys.
    static func keys(of path: Path) -> [ChildKey] {
        path.segments.map { ChildKey($0) }
    }

    /// The node at `keys` below `node`, as ``Node/child(at:)`` finds it.
    private static func descendant(of node: Node, _ keys: [ChildKey]) -> Node {
        var node = node
        for key in keys {
            node = node.child(key)
            if node.isEmpty { return .empty }
        }
        return node
    }

    private static func isLeaf(_ node: Node, _ test: (LeafValue) -> Bool) -> Bool {
        node.leafValue.map(test) ?? false
    }

    /// The string argument at `position`.
    private static func string(_ arguments: [RuleValue], _ method: String, at position: Int = 0)
        throws(RuleEvaluationError) -> String
    {
        guard arguments.indices.contains(position), case .string(let text) = arguments[position] else {
            throw RuleEvaluationError(message: "\(method)() needs a string")
        }
        return text
    }

    /// The methods of strings (their signatures are ``RuleMethod/string``), on code units as
    /// Firebase's are: `"é"` written two ways neither begins with nor contains the other.
    static func call(_ text: String, _ name: String, _ arguments: [RuleValue]) throws(RuleEvaluationError) -> RuleValue
    {
        switch name {
        case "contains":
            let part = try string(arguments, name)
            return .bool(CodeUnitString.contains(text, part))
        case "beginsWith": return .bool(CodeUnitString.hasPrefix(text, try string(arguments, name)))
        case "endsWith": return .bool(CodeUnitString.hasSuffix(text, try string(arguments, name)))
        case "replace":
            let old = try string(arguments, name)
            let new = try string(arguments, name, at: 1)
            return .string(CodeUnitString.replacing(old, with: new, in: text))
        case "toLowerCase": return .string(text.lowercased())
        case "toUpperCase": return .string(text.uppercased())
        case "matches":
            guard case .pattern(let pattern) = arguments.first else {
                throw RuleEvaluationError(message: "matches() needs a regular expression")
            }
            return .bool(try pattern.matches(text))
        default: throw RuleEvaluationError(message: "a string has no method '\(name)'")
        }
    }

    /// A binary operator other than `&&` and `||` (which short-circuit).
    static func apply(_ op: RuleOperator, _ left: RuleValue, _ right: RuleValue) throws(RuleEvaluationError)
        -> RuleValue
    {
        switch op {
        case .equal, .identical: return .bool(try equal(left, right))
        case .notEqual, .notIdentical: return .bool(!(try equal(left, right)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order: Int
            switch (left, right) {
            case (.number(let a), .number(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
            case (.string(let a), .string(let b)): order = UTF16Order.compare(a, b)
            default: throw RuleEvaluationError(message: "\(left.kind) and \(right.kind) cannot be ordered")
            }
            switch op {
            case .less: return .bool(order < 0)
            case .lessOrEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case .plus:
            switch (left, right) {
            case (.number(let a), .number(let b)): return .number(a + b)
            case (.string(let a), _): return .string(a + (try text(of: right)))
            case (_, .string(let b)): return .string((try text(of: left)) + b)
            default: throw RuleEvaluationError(message: "\(left.kind) and \(right.kind) cannot be added")
            }
        case .minus, .times, .divide, .remainder:
            guard case .number(let a) = left, case .number(let b) = right else {
                throw RuleEvaluationError(message: "\(op.rawValue) needs numbers, not \(left.kind) and \(right.kind)")
            }
            switch op {
            case .minus: return .number(a - b)
            case .times: return .number(a * b)
            case .divide:
                guard b != 0 else { throw RuleEvaluationError(message: "division by zero") }
                return .number(a / b)
            default:
                guard b != 0 else { throw RuleEvaluationError(message: "division by zero") }
                return .number(a.truncatingRemainder(dividingBy: b))
            }
        case .and, .or, .not, .negate:
            throw RuleEvaluationError(message: "\(op.rawValue) is not a binary operator here")
        }
    }

    /// Strict equality of primitives (strings by code units); objects and snapshots cannot be compared.
    private static func equal(_ left: RuleValue, _ right: RuleValue) throws(RuleEvaluationError) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return CodeUnitString.equal(a, b)
        case (.null, .bool), (.null, .number), (.null, .string), (.bool, .null), (.number, .null), (.string, .null),
            (.null, .object), (.object, .null):
            return false
        case (.bool, .number), (.bool, .string), (.number, .bool), (.number, .string), (.string, .bool),
            (.string, .number):
            return false
        default: throw RuleEvaluationError(message: "\(left.kind) and \(right.kind) cannot be compared")
        }
    }

    /// A primitive as `+` joins it to a string (as JavaScript prints it).
    private static func text(of value: RuleValue) throws(RuleEvaluationError) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e21 { return String(Int64(number)) }
            return String(number)
        default: throw RuleEvaluationError(message: "\(value.kind) cannot be joined to a string")
        }
    }
}
