/// An immutable tree of Firebase data: empty, a leaf, or children, each with an optional priority.
///
/// Nodes are values. Updating one returns a new node that shares every untouched subtree with the
/// old one (see ``ChildrenMap``). Children are never empty nodes: writing null removes a child,
/// and a node whose last child goes becomes empty. Priorities live only on non-empty nodes.
public struct Node: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case empty
        case leaf(LeafValue)
        case children(ChildrenMap)
    }

    /// The content, or export JSON read from disk and parsed when first looked at (see
    /// ``init(deferredJSON:)``).
    enum Stored: Sendable {
        case resolved(Storage)
        case deferred(DeferredNode)
    }

    /// Written only by ``update(at:with:)``, which changes a version nothing else holds.
    var stored: Stored
    /// The priority, out of line: most nodes have none, and nodes are copied at every level of
    /// every update, where one optional reference copies in a few instructions and the enum
    /// itself (three cases, one a string) went through its type's value witnesses.
    private let storedPriority: PriorityBox?

    /// What the node holds; a deferred node is parsed here, once.
    var storage: Storage {
        switch stored {
        case .resolved(let storage): return storage
        case .deferred(let deferred): return deferred.node.storage
        }
    }

    /// The node's priority, if any (always nil for the empty node).
    public var priority: Priority? {
        if case .deferred(let deferred) = stored { return deferred.node.storedPriority?.value }
        return storedPriority?.value
    }

    /// The empty node (`null`).
    public static let empty = Node(storage: .empty, priority: nil)

    init(storage: Storage, priority: Priority?) {
        self.stored = .resolved(storage)
        self.storedPriority = priority.map(PriorityBox.init)
    }

    init(deferred: DeferredNode) {
        self.stored = .deferred(deferred)
        self.storedPriority = nil
    }

    /// The unparsed text of a deferred node that has not been looked at yet.
    var deferredNode: DeferredNode? {
        if case .deferred(let deferred) = stored { return deferred }
        return nil
    }

    /// Whether two nodes hold the same data and priority (deferred nodes are parsed to compare).
    public static func == (lhs: Node, rhs: Node) -> Bool {
        if case .deferred(let left) = lhs.stored, case .deferred(let right) = rhs.stored, left === right { return true }
        return lhs.storage == rhs.storage && lhs.priority == rhs.priority
    }

    /// Hashes the data and priority (a deferred node is parsed first).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
        hasher.combine(priority)
    }

    /// A leaf.
    public init(_ value: LeafValue, priority: Priority? = nil) {
        self.init(storage: .leaf(value), priority: priority)
    }

    /// A node with these children; the empty node when there are none.
    public init(children: ChildrenMap, priority: Priority? = nil) {
        if children.isEmpty {
            self.init(storage: .empty, priority: nil)
        } else {
            self.init(storage: .children(children), priority: priority)
        }
    }

    /// Whether this is the empty node (`null`); a deferred node is never empty and stays unparsed.
    public var isEmpty: Bool {
        if case .resolved(.empty) = stored { return true }
        return false
    }

    /// Whether this is a leaf.
    public var isLeaf: Bool {
        if case .leaf = storage { return true }
        return false
    }

    /// The leaf's value, or nil for the empty node and for nodes with children.
    public var leafValue: LeafValue? {
        if case .leaf(let value) = storage { return value }
        return nil
    }

    /// The children (empty for leaves and the empty node).
    public var children: ChildrenMap {
        if case .children(let children) = storage { return children }
        return ChildrenMap()
    }

    /// The number of children.
    public var childCount: Int { children.count }

    /// The child at `key`; `.priority` gives the priority as a leaf; a missing child is empty.
    public func child(_ key: ChildKey) -> Node {
        if key.isPriorityKey { return priorityNode }
        if case .children(let children) = storage { return children[key] ?? .empty }
        return .empty
    }

    /// The child at `key`.
    public func child(_ key: String) -> Node { child(ChildKey(key)) }

    /// The descendant at `path`; empty when absent.
    public func child(at path: Path) -> Node {
        var node = self
        for segment in path.segments {
            node = node.child(ChildKey(segment))
            if node.isEmpty { return .empty }
        }
        return node
    }

    /// Whether a non-empty child exists at `key`.
    public func hasChild(_ key: ChildKey) -> Bool { !child(key).isEmpty }

    /// The priority as a leaf node (empty when there is none).
    public var priorityNode: Node {
        priority.map { Node($0.leafValue) } ?? .empty
    }

    /// The same node with another priority (the empty node stays without one).
    public func withPriority(_ priority: Priority?) -> Node {
        if isEmpty { return self }
        return Node(storage: storage, priority: priority)
    }

    /// The same node with the priority read from a leaf node (`.priority` writes); empty removes it.
    public func withPriorityNode(_ node: Node) -> Node {
        switch node.leafValue {
        case .number(let number)?: return withPriority(.number(number))
        case .string(let string)?: return withPriority(.string(string))
        case .serverValue(let value)?: return withPriority(.serverValue(value))
        case .bool?, nil: return withPriority(nil)
        }
    }

    /// This node with `node` as its child at `key` (removing the child when `node` is empty).
    public func updatingChild(_ key: ChildKey, with node: Node) -> Node {
        if key.isPriorityKey { return withPriorityNode(node) }
        switch storage {
        case .empty, .leaf:
            if node.isEmpty { return self }
            return Node(storage: .children(ChildrenMap().inserting(node, at: key)), priority: priority)
        case .children(let children):
            let updated = node.isEmpty ? children.removing(key) : children.inserting(node, at: key)
            return Node(children: updated, priority: priority)
        }
    }

    /// This node with `node` at the relative `path` (the root path replaces the whole node).
    public func updating(at path: Path, with node: Node) -> Node {
        updating(segments: path.segments[...], with: node)
    }

    func updating(segments: ArraySlice<String>, with node: Node) -> Node {
        guard let front = segments.first else { return node }
        let key = ChildKey(front)
        if key.isPriorityKey { return withPriorityNode(node) }
        let updatedChild = child(key).updating(segments: segments.dropFirst(), with: node)
        return updatingChild(key, with: updatedChild)
    }
}

extension Node: CustomStringConvertible {
    /// The export-format JSON of the node.
    public var description: String { exportJSON.jsonString }
}
