import Foundation
import GRDB
import Logging
import RTDBCore

/// The server cache and tracked queries on disk, kept in step with the sync tree
/// (docs/persistence.md#the-cache): what a new view may start from, which queries are complete, and
/// LRU pruning.
///
/// Used only on the repo's queue. Cache failures are logged, never thrown at the app: the cache
/// is an optimisation, and the server has the data.
final class PersistenceManager {
    let store: ClientStore
    let clock: WallClock
    let logger: Logger
    let policy: CachePolicy
    /// Tracked queries by path.
    var tracked = TrackedQueryMap()
    private var nextTrackedID = 1
    private var serverUpdatesSinceCheck = 0
    /// Queries kept synced (they are active, hence never pruned).
    var keptSynced: Set<QuerySpec> = []
    /// Cached data read ahead while the engine starts; dropped at the first change to the cache.
    let readAhead: ReadAhead
    /// How many views started from data read ahead.
    private(set) var readAheadHits = 0
    /// How many complete queries open at the last stop are read ahead, most recently used first.
    static let readAheadLimit = 4
    /// Acknowledged writes cached in memory and not yet on disk, in order: saved together (with
    /// the queue's side of the same acknowledgements) when the engine goes idle, and before
    /// anything else reads or changes the cache.
    private var unsaved = AcknowledgedWrites()
    /// Asks for ``saveUnsaved(in:)`` once the engine is idle (nil: save at once).
    var requestFlush: (() -> Void)?

    init(
        store: ClientStore, clock: @escaping WallClock, policy: CachePolicy, logger: Logger,
        readAhead: ReadAhead = ReadAhead()
    ) throws {
        self.store = store
        self.readAhead = readAhead
        self.clock = clock
        self.policy = policy
        self.logger = logger
        let loaded = try store.loadTrackedQueries()
        let wereActive = loaded.filter { $0.active && $0.complete && $0.query.loadsAllData }
            .sorted { $0.lastUse > $1.lastUse }.prefix(Self.readAheadLimit).map(\.query.path)
        readAhead.start(store, paths: wereActive)
        // Nothing is active until a listener says so in this run.
        let now = clock().millisecondsSince1970
        try store.resetActiveTrackedQueries(now: now)
        for var query in loaded {
            if query.active {
                query.active = false
                query.lastUse = now
            }
            tracked.insert(query)
            nextTrackedID = max(nextTrackedID, query.id + 1)
        }
    }

    /// Runs a cache change in one transaction, logging a failure.
    private func write(_ what: String, _ body: (GRDB.Database) throws -> Void) {
        do {
            try store.transaction { db in
                try saveUnsaved(in: db)
                try body(db)
            }
        } catch {
            logger.error("persistence: \(what) failed: \(error)")
        }
    }

    private static func normalized(_ query: QuerySpec) -> QuerySpec {
        query.loadsAllData ? .default(query.path) : query
    }

    func trackedQuery(_ query: QuerySpec) -> TrackedQuery? {
        let query = Self.normalized(query)
        return tracked.query(query)
    }

    private func save(_ query: TrackedQuery, in db: GRDB.Database) throws {
        tracked.insert(query)
        try store.saveTrackedQuery(query, in: db)
    }

    // MARK: - Reading

    /// Whether a complete default query at or above `query`'s path, or the query's own complete
    /// row, says the cache holds all its data.
    func isQueryComplete(_ query: QuerySpec) -> Bool {
        var ancestor = query.path
        while true {
            if tracked.defaultQuery(at: ancestor)?.complete == true { return true }
            guard let parent = ancestor.parent else { break }
            ancestor = parent
        }
        return !query.loadsAllData && trackedQuery(query)?.complete == true
    }

    /// The children at `path` known to be complete: the keys of filtered queries there, and each
    /// child with a complete default query of its own.
    func knownCompleteChildren(_ path: Path) -> Set<String> {
        flushUnsaved()
        var keys = Set<String>()
        for query in tracked.filteredQueries(at: path) where !query.query.loadsAllData {
            keys.formUnion((try? store.trackedKeys(query.id)) ?? [])
        }
        for query in tracked.defaultQueries where query.complete && query.query.path.parent == path {
            if let key = query.query.path.back { keys.insert(key) }
        }
        return keys
    }

    /// What a new view for `query` starts from when nothing in memory has complete data.
    func serverCache(for query: QuerySpec) -> (node: Node, complete: Bool) {
        flushUnsaved()
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            logger.debug(
                "persistence: cache read for \(query) in \(RepoDisk.ms(DispatchTime.now().uptimeNanoseconds - started)) ms"
            )
        }
        do {
            if isQueryComplete(query) {
                let node = try cachedNode(query)
                if !query.loadsAllData, let own = trackedQuery(query), own.complete,
                    tracked.defaultQuery(at: query.path)?.complete != true
                {
                    let keys = try store.trackedKeys(own.id)
                    return (Self.restrict(node, to: keys), true)
                }
                return (node, true)
            }
            let keys = knownCompleteChildren(query.path)
            guard !keys.isEmpty else { return (.empty, false) }
            return (Self.restrict(try cachedNode(query), to: keys), false)
        } catch {
            logger.error("persistence: reading the cache at \(query.path) failed: \(error)")
            return (.empty, false)
        }
    }

    /// The cached node at the query's location: read ahead, or read now.
    private func cachedNode(_ query: QuerySpec) throws -> Node {
        if let node = readAhead.take(query.path) {
            readAheadHits += 1
            logger.debug("persistence: \(query) starts from data read ahead")
            return node
        }
        return try store.serverCache(at: query.path)
    }

    private static func restrict(_ node: Node, to keys: Set<String>) -> Node {
        guard !node.isLeaf else { return .empty }
        var result = Node.empty
        for key in keys {
            let child = node.child(ChildKey(key))
            if !child.isEmpty { result = result.updatingChild(ChildKey(key), with: child) }
        }
        return result
    }

    // MARK: - Tracked queries

    func setQueryActive(_ query: QuerySpec) { setActive(query, true) }

    func setQueryInactive(_ query: QuerySpec) { setActive(query, false) }

    private func setActive(_ query: QuerySpec, _ active: Bool) {
        let query = Self.normalized(query)
        var row =
            trackedQuery(query)
            ?? TrackedQuery(
                id: nextTrackedID, query: query, lastUse: clock().millisecondsSince1970, complete: false, active: active
            )
        if row.id == nextTrackedID { nextTrackedID += 1 }
        row.lastUse = clock().millisecondsSince1970
        row.active = active
        write("tracking \(query)") { db in try save(row, in: db) }
    }

    /// The server finished sending `query`: a default query completes everything at and below it.
    func setQueryComplete(_ query: QuerySpec) {
        let query = Self.normalized(query)
        write("completing \(query)") { db in
            if query.loadsAllData {
                for var row in tracked.all where query.path.contains(row.query.path) && !row.complete {
                    row.complete = true
                    try save(row, in: db)
                }
            } else if var row = trackedQuery(query), !row.complete {
                row.complete = true
                try save(row, in: db)
            }
        }
    }

    /// After an acknowledged write was cached at `path`: a complete (inactive) default query there.
    func ensureCompleteTrackedQuery(_ path: Path) {
        write("tracking \(path)") { db in try ensureCompleteTrackedQuery(path, in: db) }
    }

    private func ensureCompleteTrackedQuery(_ path: Path, in db: GRDB.Database) throws {
        if let row = completedTrackedQuery(path) { try store.saveTrackedQuery(row, in: db) }
    }

    /// Marks the default query at `path` complete in memory; the row to save, if it changed.
    private func completedTrackedQuery(_ path: Path) -> TrackedQuery? {
        guard !isQueryComplete(.default(path)) else { return nil }
        return markedComplete(path)
    }

    /// Marks the default query at `path`, known not to be complete, complete in memory; the row
    /// to save.
    private func markedComplete(_ path: Path) -> TrackedQuery {
        let row = tracked.completeDefaultQuery(at: path) {
            TrackedQuery(
                id: nextTrackedID, query: .default(path), lastUse: clock().millisecondsSince1970, complete: true,
                active: false)
        }
        if row.id == nextTrackedID { nextTrackedID += 1 }
        return row
    }

    func setTrackedKeys(_ query: QuerySpec, _ keys: Set<String>) {
        guard !query.loadsAllData, let row = trackedQuery(query) else { return }
        write("keys of \(query)") { db in try store.setTrackedKeys(row.id, keys, in: db) }
    }

    func updateTrackedKeys(_ query: QuerySpec, added: [String], removed: [String]) {
        guard !query.loadsAllData, let row = trackedQuery(query) else { return }
        write("keys of \(query)") { db in try store.updateTrackedKeys(row.id, added: added, removed: removed, in: db) }
    }

    // MARK: - Server data

    /// Server data at `path` replaced; `query` (default when nil) is complete.
    func overwriteServerCache(_ path: Path, _ node: Node, query: QuerySpec? = nil) {
        let query = query ?? .default(path)
        readAhead.invalidate()
        write("caching \(path)") { db in
            if query.loadsAllData {
                try store.overwriteServerCache(path, node, in: db)
            } else {
                try store.overwriteServerCache(node.children.map { (path.child($0.key.string), $0.node) }, in: db)
            }
        }
        setQueryComplete(query)
        serverCacheUpdated()
    }

    /// Server data merged at `path`.
    func mergeServerCache(_ path: Path, _ children: [(path: Path, node: Node)]) {
        readAhead.invalidate()
        write("caching \(path)") { db in
            try store.overwriteServerCache(children.map { (path.child($0.path), $0.node) }, in: db)
        }
        serverCacheUpdated()
    }

    /// An acknowledged user write, cached where no active default query will echo it.
    ///
    /// In memory at once, on disk with the next save: a draining queue acknowledges thousands,
    /// and a transaction each cost more than the rest of an acknowledgement.
    func applyUserWrite(_ path: Path, _ children: [(path: Path, node: Node)]) {
        let above = defaultQueries(atOrAbove: path)
        if above.active { return }
        readAhead.invalidate()
        let row = above.complete ? nil : markedComplete(path)
        for (relative, node) in children { unsaved.append(path.child(relative), node) }
        if let row { unsaved.append(row) }
        if let requestFlush { requestFlush() } else { flushUnsaved() }
    }

    /// Whether acknowledged writes wait to be saved.
    var hasUnsaved: Bool { !unsaved.isEmpty }

    /// Saves the acknowledged writes cached since the last save, in `db`'s transaction.
    func saveUnsaved(in db: GRDB.Database) throws {
        try store.saveAcknowledged(takeUnsaved(), in: db)
    }

    /// The saves of the acknowledged writes cached since the last save, for a transaction that
    /// runs later (in order: the store has one writer queue).
    func takeUnsaved() -> AcknowledgedWrites {
        defer { unsaved = AcknowledgedWrites() }
        return unsaved
    }

    /// Takes back saves that failed, before those gathered since (the store has one writer queue,
    /// so they still run in order).
    func takeBack(_ saves: AcknowledgedWrites) {
        unsaved.prepend(saves)
    }

    /// Before a read of the cache: saves what is unsaved, and waits for saves still running.
    func flushUnsaved() {
        if hasUnsaved { write("caching acknowledged writes") { _ in } }
        store.waitForLaterTransactions()
    }

    /// Whether a default query at or above `path` is active, and whether one is complete: one
    /// walk up for both (an acknowledgement asks both, and a draining queue has thousands).
    private func defaultQueries(atOrAbove path: Path) -> (active: Bool, complete: Bool) {
        var complete = false
        // Deepest first, and only at depths where some default query is tracked.
        for depth in stride(from: path.segments.count, through: 0, by: -1)
        where tracked.hasDefaultQueries(atDepth: depth) {
            let ancestor = depth == path.segments.count ? path : Path(segments: Array(path.segments.prefix(depth)))
            guard let query = tracked.defaultQuery(at: ancestor) else { continue }
            if query.active { return (true, complete || query.complete) }
            complete = complete || query.complete
        }
        return (false, complete)
    }

    private func serverCacheUpdated() {
        serverUpdatesSinceCheck += 1
        guard serverUpdatesSinceCheck > CachePolicy.serverUpdatesBetweenChecks else { return }
        serverUpdatesSinceCheck = 0
        pruneIfNeeded()
    }
}
