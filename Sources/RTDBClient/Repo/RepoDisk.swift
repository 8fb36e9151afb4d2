import Dispatch
import Foundation
import GRDB
import Logging
import RTDBCore

/// The repo's disk when persistence is on: the SQLite file, the cache and tracked queries over
/// it, the saving of what acknowledgements leave in memory, and what the start restored and has
/// not finished with (docs/client-engine.md#persistence).
///
/// One of the repo's parts, used only on its queue; a save that runs later on the store's
/// writer queue reports a failure through the closure the repo gives it.
final class RepoDisk {
    /// The SQLite file.
    let store: ClientStore
    /// The disk cache and tracked queries.
    let cache: PersistenceManager
    /// When the opening started (`DispatchTime` nanoseconds), for the log.
    let openingStarted: UInt64
    private let logger: Logger
    /// Whether a save of what acknowledgements left in memory is on the queue.
    var flushScheduled = false
    /// What the start restored from disk and has not finished with.
    var restored = RestoredQueue()

    /// What an earlier run left that the engine needs before it connects.
    struct Identity: Equatable {
        /// The instance id, kept so that idempotency keys stay the same across runs.
        var instanceID: String
        /// One past the highest write id on disk.
        var nextWriteID: Int
        /// The credential saved with ``Repo/setCredential(_:)``.
        var credential: String?
        /// The host the server redirected this URL to.
        var host: String?
    }

    /// The acknowledgements one save takes: the cache's new data, the queue's rows to delete and
    /// its attempt counts.
    struct Acknowledgements: Sendable {
        var cache: AcknowledgedWrites
        var removals: [Int]
        var attempts: [Int: Int]
    }

    /// Opens the file (creating it and its folder) and the cache over it; the cache starts
    /// reading the queries that were open at the last stop into `readAhead`.
    init(settings: PersistenceSettings, clock: @escaping WallClock, logger: Logger, readAhead: ReadAhead) throws {
        openingStarted = DispatchTime.now().uptimeNanoseconds
        try FileManager.default.createDirectory(
            at: settings.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        store = try ClientStore(path: settings.file.path, clock: clock, logger: logger)
        cache = try PersistenceManager(
            store: store, clock: clock, policy: CachePolicy(maxSizeBytes: settings.cacheSizeBytes), logger: logger,
            readAhead: readAhead)
        self.logger = logger
    }

    /// What an earlier run saved; a new file takes `newInstanceID` as its instance id.
    ///
    /// - Parameter hostKey: The URL's host, under which a redirect's host is kept.
    func identity(newInstanceID: String, hostKey: String) throws -> Identity {
        let instanceID: String
        if let saved = try store.setting("instance_id") {
            instanceID = saved
        } else {
            try store.setSetting("instance_id", newInstanceID)
            instanceID = newInstanceID
        }
        return Identity(
            instanceID: instanceID, nextWriteID: try store.highestWriteID() + 1,
            credential: try store.setting("credential"), host: try store.setting(Self.hostSetting(hostKey)))
    }

    /// The setting that keeps the host a URL's host redirects to.
    static func hostSetting(_ hostKey: String) -> String { "host \(hostKey)" }

    /// Saves a setting for the next run (nil forgets it); a failure is logged, not thrown (the
    /// setting is a convenience of the next start).
    func save(setting name: String, _ value: String?) {
        do {
            try store.setSetting(name, value)
        } catch {
            logger.error("persistence: saving the setting '\(name)' failed: \(error)")
        }
    }

    /// Keeps (or stops keeping) `query` synced, in the cache now and on disk for the next run.
    func setKeptSynced(_ query: QuerySpec, _ keep: Bool) {
        if keep { cache.keptSynced.insert(query) } else { cache.keptSynced.remove(query) }
        do {
            try store.setKeepSynced(query, keep)
        } catch {
            logger.error("persistence: saving keepSynced at \(query.path) failed: \(error)")
        }
    }

    /// The keepSynced queries an earlier run saved, kept synced in the cache from now on.
    func restoreKeepSynced() throws -> [QuerySpec] {
        let keptSynced = try store.loadKeepSynced()
        cache.keptSynced = Set(keptSynced)
        return keptSynced
    }

    /// Saves what acknowledgements left in memory (the cache's side and `queue`'s) in one
    /// transaction, so that a crash keeps both or neither: now (`waiting`), or on the store's
    /// writer queue while the engine goes on.
    ///
    /// A save that fails is not lost: waiting, it is taken back at once; later, `failed` gets it
    /// on the writer's queue, for ``takeBack(_:into:)`` on the repo's. A row left meanwhile only
    /// means the write is sent again after a restart, and the server acknowledges it without
    /// applying it twice (its idempotency key).
    func saveAcknowledgements(
        of queue: PendingWriteQueue, waiting: Bool, failed: @escaping @Sendable (Acknowledgements) -> Void
    ) {
        guard queue.hasUnsaved || cache.hasUnsaved else { return }
        let (removals, attempts) = queue.takeUnsaved()
        let taken = Acknowledgements(cache: cache.takeUnsaved(), removals: removals, attempts: attempts)
        let store = store
        let save: @Sendable (GRDB.Database) throws -> Void = { db in
            try store.saveAcknowledged(taken.cache, in: db)
            try store.updateQueue(removing: taken.removals, attempts: taken.attempts, in: db)
        }
        guard waiting else { return store.transactionLater(save) { _ in failed(taken) } }
        do { try store.transaction(save) } catch { takeBack(taken, into: queue) }
    }

    /// Keeps acknowledgements whose save failed, to be saved with the next batch.
    func takeBack(_ acknowledgements: Acknowledgements, into queue: PendingWriteQueue) {
        cache.takeBack(acknowledgements.cache)
        queue.takeBack(removals: acknowledgements.removals, attempts: acknowledgements.attempts)
    }

    /// Closes the file once the saves already started have committed.
    func close() {
        do {
            try store.close()
        } catch {
            logger.warning("the persisted store is closed when its last reader is done: \(error)")
        }
    }

    /// Milliseconds with one decimal, for the log.
    static func ms(_ nanoseconds: UInt64) -> String { String(format: "%.1f", Double(nanoseconds) / 1e6) }
}
