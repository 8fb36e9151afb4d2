import Dispatch
import Foundation
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
    /// Opens the database's file (``RepoDisk``) and takes what an earlier run left that the
    /// connection needs: the instance id (so idempotency keys stay the same), the next write id,
    /// the credential and the host.
    ///
    /// The write queue comes after, from ``restoreQueue()``, while the connection is made. When
    /// the file cannot be used, there is no disk and writes are refused.
    func openDisk(_ settings: PersistenceSettings) {
        settings.beforeOpening?()
        do {
            let disk = try RepoDisk(settings: settings, clock: clock, logger: logger, readAhead: readAhead)
            let saved = try disk.identity(newInstanceID: userWrites.ids.instance, hostKey: connection.configuredHost)
            userWrites.ids.instance = saved.instanceID
            userWrites.ids.next = saved.nextWriteID
            self.disk = disk
            serverTree.persistence = disk.cache
            pendingWrites = PendingWriteQueue(store: disk.store, logger: logger)
            // The queue's and the cache's sides of acknowledgements are saved together, in one
            // transaction, once the engine is idle.
            let requestFlush: () -> Void = { [weak self] in self?.scheduleFlush() }
            pendingWrites.requestFlush = requestFlush
            disk.cache.requestFlush = requestFlush
            if let credential = saved.credential { connection.auth.set(DatabaseToken(credential: credential)) }
            if let host = saved.host { connection.useCachedHost(host) }
        } catch {
            disk = nil
            serverTree.persistence = nil
            refuseWrites(file: settings.file.path, error)
        }
    }

    /// Restores the write queue, replayed locally now and sent in order after the listens once
    /// connected (the connection's hello waits on this queue until then), and the keepSynced
    /// queries to declare again.
    func restoreQueue() {
        // Listens added from now on are processed at once and read the cache themselves; what
        // was read ahead and not taken by the listens queued meanwhile is then let go.
        defer {
            readAhead.stopAccepting()
            schedule { [readAhead] in readAhead.invalidate() }
        }
        guard let disk else { return }
        let opening = DispatchTime.now().uptimeNanoseconds
        // Each chunk is replayed while the next is read. The writes are handed to the connection
        // when it connects or before the next write, not now: a view's first events need only
        // the local replay.
        var replaying: UInt64 = 0
        let count: Int
        do {
            count = try pendingWrites.restore { chunk in
                let start = DispatchTime.now().uptimeNanoseconds
                replay(chunk, on: disk)
                replaying += DispatchTime.now().uptimeNanoseconds - start
            }
            // Each acknowledgement of a restored write may track a query at its path: room made
            // once, not by doubling (rehashing every path each time) while the queue drains.
            disk.cache.tracked.reserveCapacity(count)
            disk.restored.replayedAt = DispatchTime.now().uptimeNanoseconds
        } catch {
            takeBackReplayed(on: disk)
            refuseWrites(file: disk.store.path, error, could: "be read")
            return
        }
        do {
            disk.restored.keepSynced = try disk.restoreKeepSynced()
        } catch {
            // The queue is whole: its writes stay in the view; only new writes are refused.
            refuseWrites(file: disk.store.path, error, could: "be read")
        }
        logger.debug(
            "persistence: opened in \(RepoDisk.ms(opening - disk.openingStarted)) ms; \(count) queued writes read and replayed in \(RepoDisk.ms(disk.restored.replayedAt - opening)) ms (\(RepoDisk.ms(replaying)) ms of it replaying)"
        )
    }

    /// The restore failed part of the way: the writes replayed so far leave the local view
    /// (nothing is shown that the queue does not hold; no view exists yet to hear of it).
    private func takeBackReplayed(on disk: RepoDisk) {
        for write in disk.restored.unsent { raise(serverTree.ackUserWrite(write.id, revert: true)) }
        disk.restored.unsent = []
        transactions.book.named.held = []
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

    /// Replays restored writes in order (``ReplayStep``), keeping those for the server to hand
    /// over once connected.
    private func replay(_ writes: [StoredWrite], on disk: RepoDisk) {
        for step in ReplayStep.plan(writes) {
            switch step {
            case .overwrites(let run):
                disk.restored.unsent.append(contentsOf: run.map(\.write))
                raise(serverTree.applyUserOverwrites(run.map { ($0.write.path, $0.node, $0.write.id) }))
            case .one(let write):
                if replay(write) { disk.restored.unsent.append(write) }
            case .heldTransaction(let write):
                transactions.book.named.held.append(write)
            }
        }
    }

    /// Applies a restored write to the local view (server values resolved with today's estimate),
    /// to be sent with its original id and unresolved data; false when it is not valid any more.
    private func replay(_ write: StoredWrite) -> Bool {
        do {
            if write.kind == .update {
                let nodes = try WriteInput.updateNodes(
                    (write.data.objectValue ?? [:]).map { ($0.key.string, $0.value) }, at: write.path)
                let now = serverTime
                let resolved = nodes.map { child in
                    (child.path, resolveLocally(child.node, at: write.path.child(child.path), now: now))
                }
                raise(serverTree.applyUserMerge(write.path, resolved, writeID: write.id))
            } else {
                // Validated when the app made it; only this program writes the file.
                let resolved = resolveLocally(write.setNode, at: write.path)
                raise(serverTree.applyUserOverwrite(write.path, resolved, writeID: write.id))
            }
            return true
        } catch {
            logger.error("persistence: write \(write.id) on disk is not valid any more; dropped: \(error)")
            pendingWrites.remove(write.id)
            return false
        }
    }

    /// Saves what acknowledgements left in memory in one transaction, when the queue has run what
    /// is already on it.
    func scheduleFlush() {
        guard let disk, !disk.flushScheduled else { return }
        disk.flushScheduled = true
        schedule {
            self.disk?.flushScheduled = false
            self.saveAcknowledgements(waiting: false)
        }
    }

    /// Saves what acknowledgements left in memory: on the store's writer queue while the engine
    /// goes on taking acknowledgements, or (`waiting`) now.
    func saveAcknowledgements(waiting: Bool = true) {
        disk?.saveAcknowledgements(of: pendingWrites, waiting: waiting) { [weak self] unsaved in
            guard let repo = self else { return }
            repo.schedule { repo.disk?.takeBack(unsaved, into: repo.pendingWrites) }
        }
    }

    /// Gives the connection the restored writes it does not have yet, in order: on connecting,
    /// and before anything else is put (see ``put(_:path:data:hash:idempotencyKey:onSend:onComplete:)``).
    func handOverRestoredWrites() {
        guard let disk, !disk.restored.unsent.isEmpty else { return }
        let writes = disk.restored.unsent
        disk.restored.unsent = []
        let started = DispatchTime.now().uptimeNanoseconds
        connection.sendingTogether {
            for write in writes { userWrites.send(write, completion: nil) }
        }
        logger.debug(
            "persistence: \(writes.count) restored writes handed over in \(RepoDisk.ms(DispatchTime.now().uptimeNanoseconds - started)) ms, from \(RepoDisk.ms(started - min(started, disk.restored.replayedAt))) ms after their replay"
        )
    }

    /// Saves the credential for the next run (nil forgets it), when persistence is on.
    func persistCredential(_ credential: String?) { disk?.save(setting: "credential", credential) }
}
