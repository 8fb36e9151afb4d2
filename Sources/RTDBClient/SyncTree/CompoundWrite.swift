import RTDBCore

/// A set of overwrites that apply together: at most one write covers any path, and a deeper write
/// on top of a shallower one is folded into it.
struct CompoundWrite: Sendable {
    private(set) var tree: ImmutableTree<Node>

    static let empty = CompoundWrite(tree: ImmutableTree())

    var isEmpty: Bool { tree.isEmpty }

    /// Adds a write in place: with thousands of writes under one parent, a copy per write would
    /// make a long queue quadratic.
    mutating func addWrite(_ path: Path, _ node: Node) {
        CompoundWrite.add(&tree, path.segments[...], node)
    }

    /// One walk down `segments`: a write met on the way takes `node` in; else `node` replaces
    /// whatever was at the end (one dictionary lookup per level, which a restart's replay of
    /// thousands of writes feels).
    private static func add(_ tree: inout ImmutableTree<Node>, _ segments: ArraySlice<String>, _ node: Node) {
        if let value = tree.value {
            tree.value = value.updating(at: Path(segments: Array(segments)), with: node)
        } else if let front = segments.first {
            add(&tree.children[CodeUnitString(front), default: ImmutableTree()], segments.dropFirst(), node)
        } else {
            tree = ImmutableTree(node)
        }
    }

    /// Replaces everything at and below `path` with `other` (whose root is at `path`).
    mutating func replaceSubtree(_ path: Path, with other: CompoundWrite) {
        if path.isEmpty { tree = other.tree } else { tree.setTree(path, other.tree) }
    }

    mutating func addWrites(_ path: Path, _ children: [(path: Path, node: Node)]) {
        for (relative, node) in children { addWrite(path.child(relative), node) }
    }

    /// Removes the write at `path` and deeper ones, in place.
    mutating func removeWrite(_ path: Path) {
        if path.isEmpty {
            tree = ImmutableTree()
        } else {
            tree.setTree(path, ImmutableTree())
        }
    }

    func hasCompleteWrite(_ path: Path) -> Bool { completeNode(path) != nil }

    /// The node a write at or above `path` fully defines there.
    func completeNode(_ path: Path) -> Node? {
        guard let (value, remaining) = tree.findRootMostValue(path) else { return nil }
        return value.child(at: remaining)
    }

    /// The children this write fully defines.
    var completeChildren: [NamedNode] {
        if let node = tree.value {
            return node.isLeaf ? [] : node.children.map { NamedNode(key: $0.key, node: $0.node) }
        }
        return tree.sortedChildren.compactMap { entry in
            entry.tree.value.map { NamedNode(key: ChildKey(entry.key), node: $0) }
        }
    }

    func childCompoundWrite(_ path: Path) -> CompoundWrite {
        if path.isEmpty { return self }
        if let shadowing = completeNode(path) { return CompoundWrite(tree: ImmutableTree(shadowing)) }
        return CompoundWrite(tree: tree.subtree(path))
    }

    /// `node` with every write applied; priority writes last, and only on non-empty nodes.
    func apply(to node: Node) -> Node {
        CompoundWrite.apply(tree, at: .root, to: node)
    }

    private static func apply(_ tree: ImmutableTree<Node>, at path: Path, to node: Node) -> Node {
        if let value = tree.value { return node.updating(at: path, with: value) }
        var result = node
        var priorityWrite: Node?
        for (key, child) in tree.sortedChildren {
            if key == ChildKey.priority.string {
                priorityWrite = child.value
            } else {
                result = apply(child, at: path.child(Path(segments: [key])), to: result)
            }
        }
        if let priorityWrite, !result.child(at: path).isEmpty {
            result = result.updating(at: path.child(Path(segments: [ChildKey.priority.string])), with: priorityWrite)
        }
        return result
    }
}
