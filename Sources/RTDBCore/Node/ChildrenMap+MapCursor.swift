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
}
