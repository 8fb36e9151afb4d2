extension Node {
    /// This node with each write made in turn, as ``updating(at:with:)`` one after another would
    /// leave it, with each level rebuilt once for all the writes below it.
    ///
    /// A node with thousands of children that a batch of writes touches in hundreds of places
    /// copies the way down to each once (its children kept in one pass), not once per write.
    /// Where writing them together could leave another node than writing them one by one (a
    /// priority, a leaf or empty node turned into children, every child of a node touched, a new
    /// key) that level is written one by one.
    public func updating(batch writes: [(path: Path, node: Node)]) -> Node {
        // A priority is written one by one (only `.priority` of keys in a path starts with a dot).
        if writes.contains(where: { write in write.path.segments.contains { $0.utf8.first == UInt8(ascii: ".") } }) {
            return writes.reduce(self) { $0.updating(at: $1.path, with: $1.node) }
        }
        return updating(batch: writes.map { ($0.path.segments[...], $0.node) })
    }

    private func updating(batch writes: [(segments: ArraySlice<String>, node: Node)]) -> Node {
        // A write of this very node replaces it, and what came before it.
        var base = self
        var rest = writes[...]
        if let last = writes.lastIndex(where: { $0.segments.isEmpty }) {
            base = writes[last].node
            rest = writes[(last + 1)...]
        }
        guard !rest.isEmpty else { return base }
        guard rest.count > 1, case .children(let children) = base.storage else {
            return rest.reduce(base) { $0.updating(at: Path(segments: Array($1.segments)), with: $1.node) }
        }
        // The writes by child, in order within each.
        var groups: [CodeUnitString: [(segments: ArraySlice<String>, node: Node)]] = [:]
        var keys: [ChildKey] = []
        for write in rest {
            let front = CodeUnitString(write.segments[write.segments.startIndex])
            if groups[front] == nil { keys.append(ChildKey(front.string)) }
            groups[front, default: []].append((write.segments.dropFirst(), write.node))
        }
        // Some child untouched (so the children never all go), and every touched one there.
        guard keys.count < children.count, keys.allSatisfy({ children[$0] != nil }) else {
            return rest.reduce(base) { $0.updating(at: Path(segments: Array($1.segments)), with: $1.node) }
        }
        keys.sort()
        var replacements: [(key: ChildKey, node: Node)] = []
        replacements.reserveCapacity(keys.count)
        var removed: [ChildKey] = []
        for key in keys {
            let updated = base.child(key).updating(batch: groups[CodeUnitString(key.string)] ?? [])
            if updated.isEmpty { removed.append(key) } else { replacements.append((key, updated)) }
        }
        var map = children.replacing(replacements[...])
        for key in removed { map = map.removing(key) }
        return Node(children: map, priority: base.priority)
    }
}
