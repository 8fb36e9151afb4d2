extension ChildrenMap {
    /// Walks a map's children in key order (or reverse key order), a packed child as its place in
    /// the packed text, unread: a packed map's changes merged with its packed children.
    struct MapCursor {
        /// A child as the map holds it.
        enum Value {
            /// A node of the treap.
            case node(Node)
            /// The packed child at this position, unread.
            case packed(Int)
        }

        private var changes: EntryWalk
        private var nextChange: Entry?
        private let children: PackedChildren?
        private var position: Int
        private var packedKey: ChildKey?
        private let reversed: Bool

        init(root: Entry?, children: PackedChildren?, reversed: Bool = false) {
            self.changes = EntryWalk(root: root, reversed: reversed)
            self.children = children
            self.reversed = reversed
            self.position = reversed ? (children?.count ?? 0) - 1 : 0
            self.nextChange = changes.next()
            self.packedKey = nil
            readPackedKey()
        }

        init(_ map: ChildrenMap) {
            self.init(root: map.root, children: map.packed?.children)
        }

        private mutating func readPackedKey() {
            guard let children, position >= 0, position < children.count else {
                packedKey = nil
                return
            }
            packedKey = children.key(at: position)
        }

        private mutating func takePacked(_ key: ChildKey) -> (key: ChildKey, value: Value) {
            let taken = position
            position += reversed ? -1 : 1
            readPackedKey()
            return (key, .packed(taken))
        }

        /// The next child, with its key.
        mutating func next() -> (key: ChildKey, value: Value)? {
            while true {
                guard let change = nextChange else {
                    guard let packedKey else { return nil }
                    return takePacked(packedKey)
                }
                var order = 0
                if let packedKey {
                    order = ChildKey.compare(change.key, packedKey)
                    if reversed { order = -order }
                    if order > 0 { return takePacked(packedKey) }
                }
                nextChange = changes.next()
                // A change to a packed child stands in its place.
                if order == 0, let packedKey { _ = takePacked(packedKey) }
                if change.node.isEmpty { continue }  // removed
                return (change.key, .node(change.node))
            }
        }

        /// The next child, read.
        mutating func nextEntry() -> (key: ChildKey, node: Node)? {
            guard let (key, value) = next() else { return nil }
            return (key, node(value))
        }

        /// The node a child stands for.
        func node(_ value: Value) -> Node {
            switch value {
            case .node(let node): return node
            case .packed(let position): return children?.node(at: position) ?? .empty
            }
        }

        /// Whether a child of this walk and one of `other`'s hold the same data.
        func same(_ value: Value, as otherValue: Value, in other: MapCursor) -> Bool {
            if case .packed(let position) = value, case .packed(let otherPosition) = otherValue,
                let children, let otherChildren = other.children,
                children.sameText(at: position, in: otherChildren, at: otherPosition)
            {
                return true
            }
            return ChildrenMap.sameNode(node(value), other.node(otherValue))
        }
    }

    /// A child as ``forEachChild(_:)`` gives it.
    public enum ChildValue {
        /// A node.
        case node(Node)
        /// A packed child, to be read in place.
        case packed(PackedValue)
    }

    /// Calls `body` with each child in key order, a packed one unread (``PackedValue``): a first
    /// list read where it stands, with no node made for each child.
    public func forEachChild(_ body: (ChildKey, ChildValue) -> Void) {
        guard let layer = packed else {
            forEachInKeyOrder { body($0, .node($1)) }
            return
        }
        var cursor = MapCursor(self)
        while let (key, value) = cursor.next() {
            switch value {
            case .node(let node): body(key, .node(node))
            case .packed(let position): body(key, .packed(layer.children.value(at: position)))
            }
        }
    }

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
