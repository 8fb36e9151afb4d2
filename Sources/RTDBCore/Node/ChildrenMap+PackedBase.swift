extension ChildrenMap {
    /// The packed children this map was made on (``init(packed:)``), if it was: what a reader
    /// of a first list keeps instead of a copy of every child.
    package var packedBase: PackedChildren? { packed?.children }

    /// Calls `body` with each change kept beside the packed children, in key order.
    ///
    /// A child added or replaced comes with its node, one removed with the empty node; a map not
    /// packed has none.
    package func forEachPackedChange(_ body: (ChildKey, Node) -> Void) {
        guard packed != nil else { return }
        func walk(_ entry: Entry?) {
            guard let entry else { return }
            walk(entry.left)
            body(entry.key, entry.node)
            walk(entry.right)
        }
        walk(root)
    }
}
