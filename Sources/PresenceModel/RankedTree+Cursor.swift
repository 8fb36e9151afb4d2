extension RankedTree {
    /// Steps through a tree's elements in order, one at a time (reading by rank would cost a
    /// descent per element).
    public struct Cursor {
        /// The entries still to visit and whose right subtree is not yet begun, the next on top.
        private var path: [Entry] = []

        init(_ root: Entry?) { descend(from: root) }

        /// The next element, or nil after the last.
        public mutating func next() -> Element? {
            guard let entry = path.popLast() else { return nil }
            descend(from: entry.right)
            return entry.element
        }

        private mutating func descend(from entry: Entry?) {
            var current = entry
            while let entry = current {
                path.append(entry)
                current = entry.left
            }
        }
    }

    /// A cursor at the first element.
    public var cursor: Cursor { Cursor(root) }
}
