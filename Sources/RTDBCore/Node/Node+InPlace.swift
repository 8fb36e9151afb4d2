extension Node {
    /// Puts `node` at the relative `path`, as ``updating(at:with:)`` does, changing in place every
    /// level of this tree that no other value shares (as `Array` changes storage it alone holds)
    /// and copying the rest: a version kept only here (the pending writes' compound write) takes
    /// a set in one walk, with nothing allocated for the levels it owns.
    public mutating func update(at path: Path, with node: Node) {
        update(segments: path.segments[...], with: node)
    }

    /// ``update(at:with:)`` for the keys from the tree's own level down.
    public mutating func update(segments: ArraySlice<String>, with node: Node) {
        guard let front = segments.first else {
            self = node
            return
        }
        let key = ChildKey(front)
        // Children this value alone holds are changed there: a child set, removed or added.
        if !key.isPriorityKey, case .resolved(.children(var children)) = stored {
            // This value's own reference goes first, so that the map's may be the only one.
            stored = .resolved(.empty)
            // A node left without children is empty (and so has no priority).
            defer {
                if children.isEmpty { self = .empty } else { stored = .resolved(.children(children)) }
            }
            if node.isEmpty && segments.count == 1 {
                children.remove(key)
                return
            }
            var emptied = false
            let found = children.modifyExisting(key) { child in
                child.update(segments: segments.dropFirst(), with: node)
                emptied = child.isEmpty
            }
            if found {
                // A child left empty goes.
                if emptied { children.remove(key) }
                return
            }
            let child = Node.empty.updating(segments: segments.dropFirst(), with: node)
            if !child.isEmpty { children.insert(child, at: key) }
            return
        }
        self = updating(segments: segments, with: node)
    }
}
