extension Node {
    /// This node with each write made in turn, as ``updating(at:with:)`` one after another would
    /// leave it, with each level rebuilt once for all the writes below it.
    ///
    /// A node with thousands of children that a batch of writes touches in hundreds of places
    /// copies the way down to each once (its children kept in one pass), not once per write.
    /// Together can differ from one by one only where a node's children could all go on the
    /// way (it loses its priority then), or a leaf or empty node gets children: such a level, and
    /// any write of a priority, goes one by one.
    public func updating(batch writes: [(path: Path, node: Node)]) -> Node {
        // Only `.priority` of a path's keys starts with a dot.
        if writes.contains(where: { write in write.path.segments.contains { $0.utf8.first == UInt8(ascii: ".") } }) {
            return writes.reduce(self) { $0.updating(at: $1.path, with: $1.node) }
        }
        return updating(batch: writes.map { ($0.path.segments[...], $0.node) })
    }

    /// A write below a node: the keys left of its path, and what it writes there.
    private typealias Below = (segments: ArraySlice<String>, node: Node)

    private func updating(batch writes: [Below]) -> Node {
        // A write of this very node replaces it, and what came before it.
        var base = self
        var rest = writes[...]
        if let last = writes.lastIndex(where: { $0.segments.isEmpty }) {
            base = writes[last].node
            rest = writes[(last + 1)...]
        }
        guard !rest.isEmpty else { return base }
        // A small node is cheaper to write one by one than to group for (unless every write goes
        // into one child: a node above a wide one).
        guard rest.count > 1, case .children(let children) = base.storage,
            children.count >= Node.batchedWidth || Node.allInOneChild(rest)
        else {
            return rest.reduce(base) { $0.updating(at: Path(segments: Array($1.segments)), with: $1.node) }
        }
        let (keys, groups) = Node.grouped(rest)
        guard Node.keepsAChild(children, keys: keys, groups: groups) else {
            return rest.reduce(base) { $0.updating(at: Path(segments: Array($1.segments)), with: $1.node) }
        }
        // It never loses all its children: each child goes its own way, whatever the order.
        func written(_ key: ChildKey, _ child: Node) -> Node {
            child.updating(batch: groups[CodeUnitString(key.string)] ?? [])
        }
        var emptied: [ChildKey] = []
        var (map, missing) = children.updatingExisting(keys.sorted()[...]) { key, child in
            let updated = written(key, child)
            if updated.isEmpty { emptied.append(key) }
            return updated
        }
        for key in emptied { map = map.removing(key) }
        for key in missing {
            let added = written(key, .empty)
            if !added.isEmpty { map = map.inserting(added, at: key) }
        }
        return Node(children: map, priority: base.priority)
    }

    /// The fewest children for which a node's writes are grouped by child.
    static let batchedWidth = 16

    /// Whether every write goes into the same child (keys compared by code units).
    private static func allInOneChild(_ writes: ArraySlice<Below>) -> Bool {
        guard let first = writes.first?.segments.first else { return false }
        return writes.allSatisfy { write in
            write.segments.first.map { CodeUnitString.equal($0, first) } ?? false
        }
    }

    /// The writes by the child they go into, in order within each; the children in the order
    /// first written.
    private static func grouped(_ writes: ArraySlice<Below>) -> (keys: [ChildKey], groups: [CodeUnitString: [Below]]) {
        var groups: [CodeUnitString: [Below]] = [:]
        var keys: [ChildKey] = []
        for write in writes {
            // The callers pass no write of the node itself; one would have no child to go into.
            guard let first = write.segments.first else { continue }
            let front = CodeUnitString(first)
            groups[front, default: []].append((write.segments.dropFirst(), write.node))
            if groups[front]?.count == 1 { keys.append(ChildKey(front.string)) }
        }
        return (keys, groups)
    }

    /// Whether some child is there all through the writes: one they do not touch, or one whose
    /// writes never leave it empty.
    private static func keepsAChild(
        _ children: ChildrenMap, keys: [ChildKey], groups: [CodeUnitString: [Below]]
    ) -> Bool {
        // Fewer keys written than children: some child is untouched (no lookup needed).
        if keys.count < children.count { return true }
        var touched: [(key: ChildKey, child: Node)] = []
        for key in keys {
            if let child = children[key] { touched.append((key, child)) }
        }
        if touched.count < children.count { return true }
        return touched.contains { $0.child.neverEmpties(groups[CodeUnitString($0.key.string)] ?? []) }
    }

    /// Whether these writes, one by one, never leave this node empty (false when unsure).
    private func neverEmpties(_ writes: [Below]) -> Bool {
        guard !writes.contains(where: { $0.segments.isEmpty }), case .children(let children) = storage else {
            return false
        }
        // Fewer writes than children: some child is untouched, known without grouping the writes
        // (which the node's own batch does next).
        if writes.count < children.count { return true }
        let (keys, groups) = Node.grouped(writes[...])
        return Node.keepsAChild(children, keys: keys, groups: groups)
    }
}
