import RTDBCore

/// A set of overwrites that apply together: at most one write covers any path, and a deeper write
/// on top of a shallower one is folded into it.
struct CompoundWrite: Sendable {
    private(set) var tree: ImmutableTree<Node>

    static let empty = CompoundWrite(tree: ImmutableTree())

    var isEmpty: Bool { tree.isEmpty }

    /// Adds a write in place: with thousands of writes under one parent, a copy per write would
    /// make a long queue quadratic.
    ///
    /// Returns whether it met another write: one at or above `path`, or one below it.
    @discardableResult
    mutating func addWrite(_ path: Path, _ node: Node) -> Bool {
        CompoundWrite.add(&tree, path.segments, from: 0, node)
    }

    /// One walk down `segments` from `depth`; returns whether it met another write.
    ///
    /// A write met on the way takes `node` in; else `node` replaces whatever was at the end (one
    /// dictionary lookup per level and no copies, which a restart's replay of thousands of writes
    /// feels). Another write is met on the way, or found below the end.
    private static func add(
        _ tree: inout ImmutableTree<Node>, _ segments: [String], from depth: Int, _ node: Node
    ) -> Bool {
        if tree.value != nil {
            // In place: the pending writes' tree is the only holder of its version.
            tree.value?.update(segments: segments[depth...], with: node)
            return true
        } else if depth < segments.count {
            return add(
                &tree.children[CodeUnitString(segments[depth]), default: ImmutableTree()], segments, from: depth + 1,
                node)
        } else {
            // Children here are writes below (or, left by a removal, empty branches: counted as
            // writes, which only costs a caller its shortcut).
            let below = !tree.children.isEmpty
            tree = ImmutableTree(node)
            return below
        }
    }

    /// Adds overwrites in order, as ``addWrite(_:_:)`` one by one would; a run of writes side
    /// by side under one parent (a restarted queue's) goes down to the parent once and makes room
    /// for all of them at once.
    ///
    /// Returns whether any write met another (one already here, or one of `writes`).
    @discardableResult
    mutating func addWrites(_ writes: [(path: Path, node: Node)]) -> Bool {
        var met = false
        var start = 0
        while start < writes.count {
            let segments = writes[start].path.segments
            var end = start + 1
            while end < writes.count, CompoundWrite.areSiblings(writes[end].path.segments, segments) { end += 1 }
            let run = writes[start..<end]
            if run.count == 1 || !CompoundWrite.addSiblings(&tree, parent: segments.dropLast(), from: 0, run, met: &met)
            {
                for write in run {
                    if addWrite(write.path, write.node) { met = true }
                }
            }
            start = end
        }
        return met
    }

    /// Whether two paths have the same parent (by code units), neither being the root.
    private static func areSiblings(_ a: [String], _ b: [String]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return false }
        return zip(a.dropLast(), b.dropLast()).allSatisfy { CodeUnitString.equal($0, $1) }
    }

    /// Adds `run` (writes under `parent`) once at the parent.
    ///
    /// Returns false, with nothing changed, when a write above the parent must take each one in;
    /// `met` becomes true when a write of the run meets another.
    private static func addSiblings(
        _ tree: inout ImmutableTree<Node>, parent: ArraySlice<String>, from depth: Int,
        _ run: ArraySlice<(path: Path, node: Node)>, met: inout Bool
    ) -> Bool {
        guard tree.value == nil else { return false }
        if depth < parent.endIndex {
            // Only a node without a value is created on the way, and then none below it has one.
            return addSiblings(
                &tree.children[CodeUnitString(parent[depth]), default: ImmutableTree()], parent: parent,
                from: depth + 1, run, met: &met)
        }
        tree.children.reserveCapacity(tree.children.count + run.count)
        for (path, node) in run {
            let child = CodeUnitString(path.segments[depth])
            if add(&tree.children[child, default: ImmutableTree()], path.segments, from: depth + 1, node) { met = true }
        }
        return true
    }

    /// Replaces everything at and below `path` with `other` (whose root is at `path`).
    mutating func replaceSubtree(_ path: Path, with other: CompoundWrite) {
        if path.isEmpty { tree = other.tree } else { tree.setTree(path, other.tree) }
    }

    /// Adds an update's children at `path`; returns whether any met another write.
    @discardableResult
    mutating func addWrites(_ path: Path, _ children: [(path: Path, node: Node)]) -> Bool {
        var met = false
        for (relative, node) in children {
            if addWrite(path.child(relative), node) { met = true }
        }
        return met
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
