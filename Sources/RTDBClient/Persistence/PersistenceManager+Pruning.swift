import Foundation
import RTDBCore

extension PersistenceManager {
    /// What one prune round would do now: the inactive queries it removes (oldest use first) and
    /// the paths it must keep.
    func prunePlan() -> (prune: [TrackedQuery], keep: [Path]) {
        let all = tracked.all
        let prunable = all.filter { !$0.active && !keptSynced.contains($0.query) }
            .sorted { ($0.lastUse, $0.id) < ($1.lastUse, $1.id) }
        let toPrune = prunable.count - policy.numberToKeep(prunableCount: prunable.count)
        let pruned = Array(prunable.prefix(toPrune))
        let prunedIDs = Set(pruned.map(\.id))
        let keep = all.filter { !prunedIDs.contains($0.id) }.map(\.query.path)
        return (pruned, keep)
    }

    /// Prunes rounds until the cache fits and few enough inactive queries remain.
    func pruneIfNeeded() {
        flushUnsaved()
        do {
            var size = try store.serverCacheSize()
            while policy.shouldPrune(cacheSize: size, prunableCount: prunableCount) {
                let plan = prunePlan()
                guard !plan.prune.isEmpty else { break }
                try prune(plan)
                let newSize = try store.serverCacheSize()
                logger.debug("persistence: pruned \(plan.prune.count) queries, cache \(size) → \(newSize) bytes")
                size = newSize
            }
        } catch {
            logger.error("persistence: pruning failed: \(error)")
        }
    }

    private var prunableCount: Int {
        tracked.all.count { !$0.active && !keptSynced.contains($0.query) }
    }

    private func prune(_ plan: (prune: [TrackedQuery], keep: [Path])) throws {
        readAhead.invalidate()
        try store.transaction { db in
            for query in plan.prune {
                try store.deleteTrackedQuery(query.id, in: db)
            }
            try store.pruneServerCache(prune: plan.prune.map(\.query.path), keep: plan.keep, in: db)
        }
        for query in plan.prune {
            tracked.remove(query)
        }
    }

    /// Empties the cache and forgets every tracked query (the write queue stays).
    func clear() {
        flushUnsaved()
        readAhead.invalidate()
        do {
            try store.transaction { db in
                try store.clearServerCache(in: db)
                try db.execute(sql: "DELETE FROM tracked_queries; DELETE FROM tracked_keys")
            }
            let active = tracked.all.filter(\.active)
            tracked = TrackedQueryMap()
            for query in active { setQueryActive(query.query) }
        } catch {
            logger.error("persistence: clearing the cache failed: \(error)")
        }
    }

    /// What the cache holds, for the inspector.
    func report() -> CacheReport {
        flushUnsaved()
        let plan = prunePlan()
        let queries = tracked.all.sorted { $0.id < $1.id }.map { query in
            CacheReport.TrackedQueryInfo(
                path: query.query.path.description, query: query.query.queryIdentifier, complete: query.complete,
                active: query.active, keepSynced: keptSynced.contains(query.query),
                lastUse: UnixTime(millisecondsSince1970: query.lastUse))
        }
        let size = (try? store.serverCacheSize()) ?? 0
        return CacheReport(
            totalBytes: size, limitBytes: policy.maxSizeBytes,
            bytesByTopLevelPath: (try? store.serverCacheSizeByTopLevelKey()) ?? [:], trackedQueries: queries,
            nextPrune: plan.prune.map { "\($0.query.path)$\($0.query.queryIdentifier)" },
            pruneDue: policy.shouldPrune(cacheSize: size, prunableCount: prunableCount),
            storeFailure: store.health.current)
    }
}

/// What the disk cache holds: sizes, tracked queries, and what pruning would remove next.
public struct CacheReport: Sendable, Hashable {
    /// One tracked query.
    public struct TrackedQueryInfo: Sendable, Hashable {
        /// The location.
        public var path: String
        /// `default`, or the query's parameters.
        public var query: String
        /// The cache holds all its data.
        public var complete: Bool
        /// It has a listener now.
        public var active: Bool
        /// It is kept synced (never pruned).
        public var keepSynced: Bool
        /// When it was last used.
        public var lastUse: UnixTime
    }

    /// Bytes used (stored JSON plus paths).
    public var totalBytes: Int
    /// `persistenceCacheSizeBytes`.
    public var limitBytes: Int
    /// Bytes per top-level key (`/` for data stored at the root).
    public var bytesByTopLevelPath: [String: Int]
    /// Every tracked query.
    public var trackedQueries: [TrackedQueryInfo]
    /// The queries (`path$query`) the next prune round would remove, oldest use first.
    public var nextPrune: [String]
    /// Whether the cache is over its limit (or holds too many inactive queries), so a round is due.
    public var pruneDue: Bool
    /// Why the store does not take writes now (a full or failing disk); nil when it does.
    public var storeFailure: StoreFailure?
}
