extension ChildrenMap {
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
}
