/// How a query orders children: by priority (the default), key, value, or a child's value.
public enum Index: Sendable, Hashable {
    /// Priority, then key (`orderByPriority`, and the default).
    case priority
    /// Key only (`orderByKey`).
    case key
    /// The child's own value, then key (`orderByValue`).
    case value
    /// The value at a path inside each child, then key (`orderByChild`).
    case child(Path)

    /// Three-way comparison of two children under this index.
    public func compare(_ lhs: NamedNode, _ rhs: NamedNode) -> Int {
        let order: Int
        switch self {
        case .key:
            return ChildKey.compare(lhs.key, rhs.key)
        case .priority:
            order = Priority.compare(lhs.node.priority, rhs.node.priority)
        case .value:
            order = Node.compareValues(lhs.node, rhs.node)
        case .child(let path):
            order = Node.compareValues(lhs.node.child(at: path), rhs.node.child(at: path))
        }
        return order != 0 ? order : ChildKey.compare(lhs.key, rhs.key)
    }

    /// Whether `lhs` sorts before `rhs` under this index.
    public func lessThan(_ lhs: NamedNode, _ rhs: NamedNode) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Whether a change of `old` into `new` can move the child in this index's order.
    public func indexedValueChanged(old: Node, new: Node) -> Bool {
        switch self {
        case .key: return false
        case .priority: return old.priority != new.priority
        case .value: return old != new
        case .child(let path): return old.child(at: path) != new.child(at: path)
        }
    }

    /// Whether `node` carries a value this index orders by (the SDKs' `isDefinedOn`).
    public func isDefined(on node: Node) -> Bool {
        switch self {
        case .key, .value: return true
        case .priority: return node.priority != nil
        case .child(let path): return !node.child(at: path).isEmpty
        }
    }

    /// A bound for range filters: the child that `value` and `name` describe under this index.
    ///
    /// For the key index the value is the key (a string) and `name` is ignored.
    public func post(value: JSONValue, name: ChildKey) -> NamedNode {
        switch self {
        case .key:
            if case .string(let string) = value { return NamedNode(key: ChildKey(string), node: .empty) }
            return NamedNode(key: name, node: .empty)
        case .priority:
            let priority = try? Priority(json: value, at: .root)
            return NamedNode(key: name, node: Node(.bool(false), priority: priority ?? nil))
        case .value:
            return NamedNode(key: name, node: (try? Node(json: value)) ?? .empty)
        case .child(let path):
            return NamedNode(key: name, node: Node.empty.updating(at: path, with: (try? Node(json: value)) ?? .empty))
        }
    }

    /// The index as the wire's `i` (nil for the priority index, which is never sent).
    public var wireName: String? {
        switch self {
        case .priority: return nil
        case .key: return ".key"
        case .value: return ".value"
        case .child(let path): return path.relativeString
        }
    }

    /// Reads a wire `i` value (`".key"`, `".value"`, `".priority"` or a child path).
    public init(wireName: String) {
        switch wireName {
        case ".key": self = .key
        case ".value": self = .value
        case ".priority": self = .priority
        default: self = .child(Path(wireName))
        }
    }
}
