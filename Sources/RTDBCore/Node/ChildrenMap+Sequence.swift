extension ChildrenMap: Sequence {
    /// Walks the entries in key order (or reverse key order).
    public struct Iterator: IteratorProtocol {
        private var walk: EntryWalk
        /// For a packed map: its children and changes, merged.
        private var packed: MapCursor?

        init(_ map: ChildrenMap, reversed: Bool) {
            if let layer = map.packed {
                walk = EntryWalk(root: nil, reversed: reversed)
                packed = MapCursor(root: map.root, children: layer.children, reversed: reversed)
            } else {
                walk = EntryWalk(root: map.root, reversed: reversed)
                packed = nil
            }
        }

        /// The next entry.
        public mutating func next() -> (key: ChildKey, node: Node)? {
            if packed != nil { return packed?.nextEntry() }
            guard let entry = walk.next() else { return nil }
            return (entry.key, entry.node)
        }
    }

    /// Walks the entries of a tree in key order (or reverse key order), with a stack.
    struct EntryWalk {
        private var stack: [Entry] = []
        private let reversed: Bool

        init(root: Entry?, reversed: Bool) {
            self.reversed = reversed
            descend(from: root)
        }

        private mutating func descend(from entry: Entry?) {
            var current = entry
            while let entry = current {
                stack.append(entry)
                current = reversed ? entry.right : entry.left
            }
        }

        /// The next entry.
        mutating func next() -> Entry? {
            guard let entry = stack.popLast() else { return nil }
            descend(from: reversed ? entry.left : entry.right)
            return entry
        }
    }

    /// Iterates in key order.
    public func makeIterator() -> Iterator { Iterator(self, reversed: false) }

    /// The entries in reverse key order.
    public var reversedEntries: IteratorSequence<Iterator> {
        IteratorSequence(Iterator(self, reversed: true))
    }

    /// The number of entries.
    public var underestimatedCount: Int { count }

    /// The keys in key order.
    public var keys: [ChildKey] { map(\.key) }

    /// Whether some child's node satisfies `predicate`: a walk of the tree itself, without an
    /// iterator's stack (an array on the heap).
    public func containsNode(where predicate: (Node) -> Bool) -> Bool {
        if packed != nil { return contains { predicate($0.node) } }
        return ChildrenMap.contains(root, where: predicate)
    }

    /// Calls `body` with each entry in key order: a walk of the tree itself, without an
    /// iterator's stack (writing a small node's export made the iterator a quarter of the work).
    public func forEachInKeyOrder(_ body: (ChildKey, Node) -> Void) {
        if packed != nil {
            for (key, node) in self { body(key, node) }
            return
        }
        ChildrenMap.walk(root, body)
    }

    private static func walk(_ entry: Entry?, _ body: (ChildKey, Node) -> Void) {
        guard let entry else { return }
        walk(entry.left, body)
        body(entry.key, entry.node)
        walk(entry.right, body)
    }

    private static func contains(_ entry: Entry?, where predicate: (Node) -> Bool) -> Bool {
        guard let entry else { return false }
        if predicate(entry.node) { return true }
        return contains(entry.left, where: predicate) || contains(entry.right, where: predicate)
    }
}

extension ChildrenMap: Hashable {
    /// Maps are equal when they hold equal nodes under equal keys.
    ///
    /// Two versions of one map (one child replaced) have the same keys, so the same shape (a
    /// key's weight fixes its place): they are compared entry by entry down both trees, and the
    /// subtrees they share are equal by identity, so the cost is the path that changed, not the
    /// whole map. Maps of other shapes are compared in key order.
    public static func == (lhs: ChildrenMap, rhs: ChildrenMap) -> Bool {
        if lhs.packed != nil || rhs.packed != nil { return packedEqual(lhs, rhs) }
        if lhs.root === rhs.root { return true }
        guard lhs.count == rhs.count else { return false }
        if let equal = sameShapeEqual(lhs.root, rhs.root) { return equal }
        return zip(lhs, rhs).allSatisfy { $0.key == $1.key && $0.node == $1.node }
    }

    /// Whether two trees of the same shape hold equal entries; nil as soon as their shapes differ.
    private static func sameShapeEqual(_ lhs: Entry?, _ rhs: Entry?) -> Bool? {
        if lhs === rhs { return true }
        guard let lhs, let rhs, lhs.count == rhs.count, lhs.key == rhs.key else { return nil }
        guard let left = sameShapeEqual(lhs.left, rhs.left) else { return nil }
        guard left, lhs.node == rhs.node else { return false }
        return sameShapeEqual(lhs.right, rhs.right)
    }

    /// Hashes every key and node.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for entry in self {
            hasher.combine(entry.key)
            hasher.combine(entry.node)
        }
    }
}
