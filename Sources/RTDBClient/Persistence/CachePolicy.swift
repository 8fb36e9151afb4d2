/// When and how much of the disk cache to prune (the SDKs' LRU policy,
/// docs/persistence.md#the-cache).
struct CachePolicy: Sendable {
    /// The cache's size limit in bytes.
    var maxSizeBytes: Int

    /// A size check runs after more than this many server cache updates.
    static let serverUpdatesBetweenChecks = 1_000
    /// At most this many inactive queries are kept.
    static let maxPrunableQueriesToKeep = 1_000
    /// Each round prunes this share of the inactive queries, oldest use first.
    static let percentOfQueriesToPruneAtOnce = 0.2

    /// The sizes the SDKs accept for `persistenceCacheSizeBytes`.
    static let allowedSizes = (1024 * 1024)...(100 * 1024 * 1024)

    /// Whether a prune round should run.
    func shouldPrune(cacheSize: Int, prunableCount: Int) -> Bool {
        cacheSize > maxSizeBytes || prunableCount > Self.maxPrunableQueriesToKeep
    }

    /// How many of `prunableCount` inactive queries one round keeps.
    func numberToKeep(prunableCount: Int) -> Int {
        min(
            Int((Double(prunableCount) * (1 - Self.percentOfQueriesToPruneAtOnce)).rounded(.down)),
            Self.maxPrunableQueriesToKeep)
    }
}
