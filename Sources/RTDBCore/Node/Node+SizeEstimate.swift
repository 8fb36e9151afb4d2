extension Node {
    /// An estimate of the node's size in bytes, close to its export JSON length.
    ///
    /// Used for cache accounting (the persistence LRU). Follows the spirit of the Android SDK's
    /// `NodeSizeEstimator`: cheap, proportional, not exact.
    public var estimatedSize: Int {
        switch storage {
        case .empty:
            return 4
        case .leaf(let value):
            return Node.leafSize(value) + (priority.map { 15 + Node.leafSize($0.leafValue) } ?? 0)
        case .children(let children):
            var size = 2
            children.forEachInKeyOrder { key, child in size += key.string.utf8.count + 4 + child.estimatedSize }
            if let priority { size += 12 + Node.leafSize(priority.leafValue) }
            return size
        }
    }

    private static func leafSize(_ value: LeafValue) -> Int {
        switch value {
        case .bool: return 4
        case .number: return 8
        case .string(let string): return 2 + string.utf8.count
        case .serverValue: return 24
        }
    }
}
