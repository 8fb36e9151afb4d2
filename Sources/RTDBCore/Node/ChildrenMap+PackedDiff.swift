extension ChildrenMap {
    /// Whether two maps, one of them packed or both, hold the same children.
    static func packedEqual(_ lhs: ChildrenMap, _ rhs: ChildrenMap) -> Bool {
        if lhs.root === rhs.root, lhs.packed?.children === rhs.packed?.children { return true }
        guard lhs.count == rhs.count else { return false }
        var left = MapCursor(lhs)
        var right = MapCursor(rhs)
        while let (leftKey, leftValue) = left.next() {
            guard let (rightKey, rightValue) = right.next(), leftKey == rightKey,
                left.same(leftValue, as: rightValue, in: right)
            else { return false }
        }
        return right.next() == nil
    }

    /// ``changes(from:)`` where one map is packed or both are.
    func packedChanges(from old: ChildrenMap) -> [ChildChange] {
        if let layer = packed, let oldLayer = old.packed, layer.children === oldLayer.children {
            return changesOfOneText(layer.children, from: old)
        }
        // Different texts (a first list after a reconnection): every child compared, in key order.
        var changes: [ChildChange] = []
        var before = MapCursor(old)
        var after = MapCursor(self)
        var oldChild = before.next()
        var newChild = after.next()
        while oldChild != nil || newChild != nil {
            let order: Int
            if let oldChild, let newChild {
                order = ChildKey.compare(oldChild.key, newChild.key)
            } else {
                order = oldChild == nil ? 1 : -1
            }
            if order == 0, let (key, oldValue) = oldChild, let (_, newValue) = newChild {
                if !before.same(oldValue, as: newValue, in: after) {
                    changes.append(ChildChange(key: key, old: before.node(oldValue), new: after.node(newValue)))
                }
                oldChild = before.next()
                newChild = after.next()
            } else if order < 0, let (key, oldValue) = oldChild {
                changes.append(ChildChange(key: key, old: before.node(oldValue), new: nil))
                oldChild = before.next()
            } else if let (key, newValue) = newChild {
                changes.append(ChildChange(key: key, old: nil, new: after.node(newValue)))
                newChild = after.next()
            }
        }
        return changes
    }

    /// Changes between two versions of one packed map: those of their treaps of changes (versions
    /// of one another, so the walk skips what they share), each seen against the packed text.
    private func changesOfOneText(_ children: PackedChildren, from old: ChildrenMap) -> [ChildChange] {
        var changed: [ChildChange] = []
        ChildrenMap.diff(old.root, root, into: &changed)
        var changes: [ChildChange] = []
        changes.reserveCapacity(changed.count)
        for change in changed {
            // No change: the packed child; an empty node: removed.
            let before = change.old.map { $0.isEmpty ? nil : $0 } ?? children.node(for: change.key)
            let after = change.new.map { $0.isEmpty ? nil : $0 } ?? children.node(for: change.key)
            switch (before, after) {
            case (nil, nil): continue
            case (let before?, let after?) where ChildrenMap.sameNode(before, after): continue
            default: changes.append(ChildChange(key: change.key, old: before, new: after))
            }
        }
        return changes
    }
}

extension ChildrenMap {
    /// The children that may differ from `old`, each with its node now (nil: gone), in no
    /// particular order: ``changes(from:)`` without the nodes before.
    ///
    /// A child whose value before lies in the text of a packed map (``PackedChildren``) is
    /// listed without that text being read, so it may be listed unchanged (a write of the value
    /// it had); every other child is listed only when it changed. A reader that wants only what
    /// is there now (the presence directory, after a 10,000-user update to a first list kept as
    /// its text) is spared reading each of them twice.
    public func changedChildren(from old: ChildrenMap) -> [(key: ChildKey, node: Node?)] {
        guard let layer = packed, let oldLayer = old.packed, layer.children === oldLayer.children else {
            return changes(from: old).map { ($0.key, $0.new) }
        }
        var changed: [ChildChange] = []
        ChildrenMap.diff(old.root, root, into: &changed)
        var children: [(key: ChildKey, node: Node?)] = []
        children.reserveCapacity(changed.count)
        for change in changed {
            // No change in the new treap: the packed child again; an empty node: removed.
            let after = change.new.map { $0.isEmpty ? nil : $0 } ?? layer.children.node(for: change.key)
            if let before = change.old {
                let before = before.isEmpty ? nil : before
                switch (before, after) {
                case (nil, nil): continue
                case (let before?, let after?) where ChildrenMap.sameNode(before, after): continue
                default: break
                }
            }
            children.append((change.key, after))
        }
        return children
    }
}
