import Foundation
import GRDB
import RTDBCore

/// Where and how much a database keeps on disk (set before first use).
struct PersistenceSettings: Sendable {
    /// The SQLite file.
    var file: URL
    /// The cache's size limit.
    var cacheSizeBytes: Int
    /// Runs on the engine's queue before the file is opened (tests hold the start here).
    var beforeOpening: (@Sendable () -> Void)?
}

extension Repo {
    /// Opens the database's file and restores what an earlier run left that the connection needs:
    /// the instance id (so idempotency keys stay the same), the credential and the host.
    ///
    /// The write queue comes after, from ``restoreQueue(_:)``, while the connection is made.
    /// Returns the opened store, or nil when it cannot be used (writes are refused then).
    func openPersistence(_ settings: PersistenceSettings) -> OpenedStore? {
        settings.beforeOpening?()
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            try FileManager.default.createDirectory(
                at: settings.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let store = try ClientStore(path: settings.file.path, clock: clock, logger: logger)
            let manager = try PersistenceManager(
                store: store, clock: clock, policy: CachePolicy(maxSizeBytes: settings.cacheSizeBytes), logger: logger,
                readAhead: readAhead)
            if let saved = try store.setting("instance_id") {
                writeIDs.instance = saved
            } else {
                try store.setSetting("instance_id", writeIDs.instance)
            }
            self.store = store
            persistence = manager
            serverTree.persistence = manager
            pendingWrites = PendingWriteQueue(store: store, logger: logger)
            pendingWrites.onChange = { [weak self] in self?.pendingWritesChanged() }
            // The queue's and the cache's sides of acknowledgements are saved together, in one
            // transaction, once the engine is idle: a crash keeps both or neither.
            let requestFlush: () -> Void = { [weak self] in self?.scheduleFlush() }
            pendingWrites.requestFlush = requestFlush
            manager.requestFlush = requestFlush
            writeIDs.next = try store.highestWriteID() + 1
            if let credential = try store.setting("credential") {
                connection.auth.set(DatabaseToken(credential: credential))
            }
            if let host = try store.setting("host \(connection.configuredHost)") { connection.useCachedHost(host) }
            return OpenedStore(store: store, manager: manager, started: started)
        } catch {
            refuseWrites(file: settings.file.path, error)
            return nil
        }
    }

    /// What ``openPersistence(_:)`` opened, for ``restoreQueue(_:)``.
    struct OpenedStore {
        let store: ClientStore
        let manager: PersistenceManager
        /// When the opening started (`DispatchTime` nanoseconds), for the log.
        let started: UInt64
    }

    /// Restores the write queue, replayed locally now and sent in order after the listens once
    /// connected (the connection's hello waits on this queue until then); returns the keepSynced
    /// queries to declare again (none when the store could not be opened).
    func restoreQueue(_ opened: OpenedStore?) -> [QuerySpec] {
        // Listens added from now on are processed at once and read the cache themselves; what
        // was read ahead and not taken by the listens queued meanwhile is then let go.
        defer {
            readAhead.stopAccepting()
            engineQueue.async { [readAhead] in readAhead.invalidate() }
        }
        guard let opened else { return [] }
        let opening = DispatchTime.now().uptimeNanoseconds
        // Each chunk is replayed while the next is read. The writes are handed to the connection
        // when it connects or before the next write, not now: a view's first events need only
        // the local replay.
        var replaying: UInt64 = 0
        let count: Int
        do {
            count = try pendingWrites.restore { chunk in
                let start = DispatchTime.now().uptimeNanoseconds
                replay(chunk)
                replaying += DispatchTime.now().uptimeNanoseconds - start
            }
        } catch {
            takeBackReplayed()
            refuseWrites(file: opened.store.path, error, could: "be read")
            return []
        }
        // Each acknowledgement of a restored write may track a query at its path: room made once,
        // not by doubling (rehashing every path each time) while the queue drains.
        opened.manager.tracked.reserveCapacity(count)
        let replayed = DispatchTime.now().uptimeNanoseconds
        storage.restored.replayedAt = replayed
        logger.debug(
            "persistence: opened in \(Repo.ms(opening - opened.started)) ms; \(count) queued writes read and replayed in \(Repo.ms(replayed - opening)) ms (\(Repo.ms(replaying)) ms of it replaying)"
        )
        do {
            let keptSynced = try opened.store.loadKeepSynced()
            opened.manager.keptSynced = Set(keptSynced)
            return keptSynced
        } catch {
            refuseWrites(file: opened.store.path, error, could: "be read")
            return []
        }
    }

    /// The restore failed part of the way: the writes replayed so far leave the local view
    /// (nothing is shown that the queue does not hold; no view exists yet to hear of it).
    private func takeBackReplayed() {
        for write in storage.restored.unsent { raise(serverTree.ackUserWrite(write.id, revert: true)) }
        storage.restored.unsent = []
        transactions.named.held = []
    }

    /// Persistence was asked for but its file cannot be used: a write accepted now would not be
    /// on disk, so writes are refused (`store_failed`) rather than kept in memory only; reads and
    /// listens go on.
    ///
    /// - Parameter could: What could not be done with the file (`be opened`, `be read`).
    private func refuseWrites(file: String, _ error: any Error, could: String = "be opened") {
        logger.error(
            "persistence: cannot use \(file): \(error). Writes are refused; reads and listens go on from memory")
        pendingWrites.unusableStore = StoreFailure(
            since: clock(), reason: "the file could not \(could): \(error)", failures: 1)
    }

    static func ms(_ nanoseconds: UInt64) -> String { String(format: "%.1f", Double(nanoseconds) / 1e6) }

    /// Replays restored writes in order; runs of sets without server values go to the sync tree
    /// together (a long queue's replay is most of a cold start).
    private func replay(_ writes: [StoredWrite]) {
        var run: [(path: Path, node: Node, writeID: Int)] = []
        func applyRun() {
            guard !run.isEmpty else { return }
            raise(serverTree.applyUserOverwrites(run))
            run.removeAll(keepingCapacity: true)
        }
        for write in writes {
            if write.kind == .set || write.kind == .remove {
                let node = write.setNode
                // A server value resolves against what the writes before it made: those go first.
                if !node.containsServerValues {
                    run.append((write.path, node, write.id))
                    storage.restored.unsent.append(write)
                    continue
                }
            }
            applyRun()
            replay(write)
        }
        applyRun()
    }

    /// Applies a restored write to the local view (server values resolved with today's estimate)
    /// and queues it for the server with its original id and unresolved data.
    private func replay(_ write: StoredWrite) {
        do {
            switch write.kind {
            case .set, .remove:
                // Validated when the app made it; only this program writes the file. Left
                // unparsed until a view or the server needs it.
                let node = write.setNode
                let resolved = resolveLocally(node, at: write.path)
                raise(serverTree.applyUserOverwrite(write.path, resolved, writeID: write.id))
            case .update:
                let nodes = try Repo.updateNodes(
                    (write.data.objectValue ?? [:]).map { ($0.key.string, $0.value) }, at: write.path)
                let now = serverTime
                let resolved = nodes.map { child in
                    (child.path, resolveLocally(child.node, at: write.path.child(child.path), now: now))
                }
                raise(serverTree.applyUserMerge(write.path, resolved, writeID: write.id))
            case .transaction:
                transactions.named.held.append(write)
                return
            }
            storage.restored.unsent.append(write)
        } catch {
            logger.error("persistence: write \(write.id) on disk is not valid any more; dropped: \(error)")
            pendingWrites.remove(write.id)
        }
    }

    /// Saves what acknowledgements left in memory (the queue's rows to delete, the cache's new
    /// data) in one transaction, when the queue has run what is already on it.
    func scheduleFlush() {
        guard !storage.flushScheduled else { return }
        storage.flushScheduled = true
        engineQueue.async { [self] in
            storage.flushScheduled = false
            saveAcknowledgements(waiting: false)
        }
    }

    /// Saves what acknowledgements left in memory in one transaction: on the store's writer queue
    /// while the engine goes on taking acknowledgements, or (`waiting`) now.
    func saveAcknowledgements(waiting: Bool = true) {
        guard let store, pendingWrites.hasUnsaved || persistence?.hasUnsaved == true else { return }
        let cache = persistence?.takeUnsaved() ?? AcknowledgedWrites()
        let (removals, attempts) = pendingWrites.takeUnsaved()
        let save: @Sendable (GRDB.Database) throws -> Void = { db in
            try store.saveAcknowledged(cache, in: db)
            try store.updateQueue(removing: removals, attempts: attempts, in: db)
        }
        // Not saved: taken back to be saved with the next batch. A row left meanwhile only means
        // the write is sent again after a restart, and the server acknowledges it without
        // applying it twice (its idempotency key).
        let failed: @Sendable (any Error) -> Void = { [weak self] _ in
            guard let repo = self else { return }
            repo.schedule { repo.takeBack(cache: cache, removals: removals, attempts: attempts) }
        }
        guard waiting else { return store.transactionLater(save, failed: failed) }
        do { try store.transaction(save) } catch { takeBack(cache: cache, removals: removals, attempts: attempts) }
    }

    /// Keeps acknowledgements whose save failed, to be saved with the next batch.
    private func takeBack(
        cache: AcknowledgedWrites, removals: [Int], attempts: [Int: Int]
    ) {
        persistence?.takeBack(cache)
        pendingWrites.takeBack(removals: removals, attempts: attempts)
    }

    /// Gives the connection the restored writes it does not have yet, in order: on connecting,
    /// and before anything else is put (see ``put(_:path:data:hash:idempotencyKey:onSend:onComplete:)``).
    func handOverRestoredWrites() {
        guard !storage.restored.unsent.isEmpty else { return }
        let writes = storage.restored.unsent
        storage.restored.unsent = []
        let started = DispatchTime.now().uptimeNanoseconds
        connection.sendingTogether {
            for write in writes { send(write, completion: nil) }
        }
        logger.debug(
            "persistence: \(writes.count) restored writes handed over in \(Repo.ms(DispatchTime.now().uptimeNanoseconds - started)) ms, from \(Repo.ms(started - min(started, storage.restored.replayedAt))) ms after their replay"
        )
    }

    /// Saves the credential for the next run (nil forgets it).
    func persistCredential(_ credential: String?) {
        persistSetting("credential", credential)
    }

    /// Saves a setting for the next run (nil forgets it), when persistence is on.
    func persistSetting(_ name: String, _ value: String?) {
        do {
            try store?.setSetting(name, value)
        } catch {
            logger.error("persistence: saving the setting '\(name)' failed: \(error)")
        }
    }
}
