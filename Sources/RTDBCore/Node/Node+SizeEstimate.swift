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

    /// ``estimatedSize`` from a sample of a node's first children when it has many (their mean
    /// size times their count, an eighth more): a buffer's size hint, where walking a million
    /// children to size the buffer for a listen's first data cost a tenth of writing them.
    public var sampledEstimatedSize: Int {
        guard case .children(let children) = storage, children.count > 4 * Node.sampledChildren else {
            return estimatedSize
        }
        var (sampled, size) = (0, 0)
        for (key, child) in children {
            size += key.string.utf8.count + 4 + child.estimatedSize
            sampled += 1
            if sampled == Node.sampledChildren { break }
        }
        let estimate = size / sampled * children.count
        return 2 + estimate + estimate / 8
    }

    /// The children ``sampledEstimatedSize`` reads.
    private static let sampledChildren = 256

    private static func leafSize(_ value: LeafValue) -> Int {
        switch value {
        case .bool: return 4
        case .number: return 8
        case .string(let string): return 2 + string.utf8.count
        case .serverValue: return 24
        }
    }
}
