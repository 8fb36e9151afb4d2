import OrderedCollections
import RTDBCore

/// A namespace's way to the disk: what is applied but not yet committed, what is committed, and
/// what waits for that (write acknowledgements, held messages, callers of `waitUntilDurable`,
/// among them reads that must see writes not yet published).
///
/// Values only, owned by the `DatabaseEngine` actor, which runs the flusher (the task that
/// commits each ``Batch`` and reports back with ``committed(_:)`` or ``refuse(_:)``). Every
/// rule of the pipeline lives here: a write reaches readers only once it is stored (the engine
/// publishes a committed batch's writes), a write is acknowledged only then, a batch that cannot
/// be stored is refused with everything applied after it, except the server's own writes, which
/// are kept and tried again; a checkpoint every `checkpointInterval` writes; a read waits for the
/// unpublished writes at, above or below its location (``newestUnpublished(touching:)``).
struct DurabilityPipeline {
    /// A write applied to the working tree, kept until it is stored and published.
    struct Applied {
        /// The write as it is logged.
        var record: LogRecord
        /// The write as listens hear it.
        var change: TreeChange
        /// Made by the server itself (a session's onDisconnect writes run): nobody can be told it
        /// was refused, so a failed commit keeps it to be tried again.
        var byServer: Bool
        /// When it was applied: its acknowledgement waits from then for its commit.
        var appliedAt = ContinuousClock.now
    }

    /// What the flusher commits in one transaction.
    struct Batch {
        /// The writes, oldest first.
        var writes: [Applied]
        /// The newest stored onDisconnect change of each session in it.
        var onDisconnect: [OnDisconnectRecord]
        /// The onDisconnect ticket the batch makes durable.
        var ticket: UInt64
        /// The checkpoint written with it, if one is due.
        var checkpoint: Checkpoint?
        /// The working tree as the batch was taken: the tree with its writes made, published
        /// once they are stored (one version a batch, so that between batches the working tree
        /// changes in place).
        var after: Node

        /// The writes as the store logs them.
        var records: [LogRecord] { writes.map(\.record) }
    }

    /// The answer a write request gets once its write is published.
    struct Acknowledgement {
        var outlet: Outlet
        var number: Int
    }

    /// What a refused batch leaves for the engine to do.
    struct Refusal {
        /// Writes whose requests are answered that they were not stored.
        var acknowledgements: [Acknowledgement] = []
        /// The server's own writes, oldest first, to apply again on the stored tree.
        var kept: [Applied] = []
        /// How many requested writes were refused.
        var refused = 0
        /// Live sessions whose onDisconnect writes go back to what the store holds for them
        /// (by outlet; nil: nothing stored).
        var onDisconnectRestored: [(outletID: Int, record: OnDisconnectRecord?)] = []
        /// Held messages that may leave now (refusals of onDisconnect changes among them).
        var released: [HeldMessages.Held] = []
    }

    /// The newest write on disk (and published to readers).
    private(set) var durableSequence: UInt64
    /// Writes applied and not yet handed to the flusher.
    private var pending: [Applied] = []
    /// When the log is folded into the snapshot, and which keys that rewrites.
    private var checkpoints: CheckpointSchedule
    /// Stored onDisconnect changes not yet committed, the newest per session, with the outlet of
    /// the live session that made it (nil: the server, as a session ended).
    private var pendingOnDisconnect = OrderedDictionary<String, (record: OnDisconnectRecord, outletID: Int?)>()
    /// The onDisconnect changes of the batch the flusher is committing.
    private var inFlightOnDisconnect = OrderedDictionary<String, (record: OnDisconnectRecord, outletID: Int?)>()
    /// What the store holds for each live session that has stored onDisconnect writes.
    private var storedOnDisconnect: [String: OnDisconnectRecord] = [:]
    /// Counts onDisconnect changes, so that an answer waits for the one it reflects.
    private(set) var onDisconnectTicket: UInt64 = 0
    private(set) var durableOnDisconnectTicket: UInt64 = 0
    private var held = HeldMessages()
    private var acknowledgements: [UInt64: [Acknowledgement]] = [:]
    /// Where the writes not yet published lie (entries up to ``durableSequence`` are stale).
    private var pendingPaths = PendingPaths()
    /// How many paths the tree of pending writes has noted since it was last emptied.
    var pendingPathsNoted: Int { pendingPaths.noted }
    private var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    /// The life of the task that commits it all (DurabilityPipeline+Flusher.swift): work appended
    /// here wakes it.
    var flusher = FlusherState()

    /// A pipeline whose store holds everything up to `sequence`.
    init(durableSequence sequence: UInt64, checkpointInterval: Int) {
        durableSequence = sequence
        checkpoints = CheckpointSchedule(interval: checkpointInterval)
    }

    /// Whether nothing is pending, held or waited for, with every write up to `applied` durable.
    func isSettled(applied: UInt64) -> Bool {
        pending.isEmpty && held.isEmpty && acknowledgements.isEmpty && waiters.isEmpty && durableSequence == applied
            && pendingOnDisconnect.isEmpty && durableOnDisconnectTicket == onDisconnectTicket
    }

    /// Whether the flusher has something to commit.
    var hasWork: Bool { !pending.isEmpty || !pendingOnDisconnect.isEmpty || checkpoints.isRequested }

    /// Takes an applied write for the next batch.
    mutating func append(_ write: Applied) {
        pending.append(write)
        Self.note(write, in: &pendingPaths)
        flusher.wake()
    }

    private static func note(_ write: Applied, in paths: inout PendingPaths) {
        switch write.change {
        case .set(let path, _):
            paths.note(path, sequence: write.record.sequence)
        case .merge(let path, let children):
            for child in children { paths.note(path.child(child.relative), sequence: write.record.sequence) }
        }
    }

    /// The newest write at, above or below `path` that is applied but not yet published, or nil:
    /// a read there waits for it (``wait(for:_:)``), so that it sees every write applied before
    /// it and none that the disk then refuses.
    func newestUnpublished(touching path: Path) -> UInt64? {
        let newest = pendingPaths.newest(touching: path)
        return newest > durableSequence ? newest : nil
    }

    /// Takes a session's onDisconnect change for the next batch (it replaces an older one).
    ///
    /// - Parameter outletID: The live session's outlet that made it; nil when the server did.
    mutating func append(_ record: OnDisconnectRecord, by outletID: Int?) {
        pendingOnDisconnect[record.sessionID] = (record, outletID)
        onDisconnectTicket += 1
        flusher.wake()
    }

    /// A store that keeps nothing: the write counts as durable at once.
    mutating func volatileApplied(_ sequence: UInt64) { durableSequence = sequence }

    /// Notes which top-level key a write touched, for the next checkpoint.
    mutating func markDirty(_ path: Path) { checkpoints.markDirty(path) }

    /// Asks for a checkpoint with the next batch (closing the namespace).
    mutating func requestCheckpoint() { checkpoints.request() }

    /// Takes everything pending as one batch; a checkpoint of `root` at `applied` goes with it
    /// when one is due.
    mutating func takeBatch(root: Node, applied: UInt64) -> Batch {
        let writes = pending
        pending = []
        inFlightOnDisconnect = pendingOnDisconnect
        pendingOnDisconnect = [:]
        let checkpoint = checkpoints.take(writes.count, root: root, applied: applied)
        return Batch(
            writes: writes, onDisconnect: inFlightOnDisconnect.values.map(\.record), ticket: onDisconnectTicket,
            checkpoint: checkpoint, after: root)
    }

    /// A batch is on disk: its writes may be published, in order (the engine takes each one's
    /// acknowledgements with ``acknowledgements(of:)`` after publishing it); returns the held
    /// messages that may now leave and resumes the callers waiting for it.
    mutating func committed(_ batch: Batch) -> [HeldMessages.Held] {
        durableSequence = max(durableSequence, batch.writes.last?.record.sequence ?? durableSequence)
        durableOnDisconnectTicket = max(durableOnDisconnectTicket, batch.ticket)
        for (sessionID, change) in inFlightOnDisconnect {
            // A session the server ended (outlet nil) is gone; a live one's copy is what it sent.
            storedOnDisconnect[sessionID] = change.outletID == nil || change.record.isRemoval ? nil : change.record
        }
        inFlightOnDisconnect = [:]
        forgetPublishedPaths()
        resumeWaiters()
        return held.release(stored: durableOnDisconnectTicket)
    }

    /// Once a batch is stored, the paths of the writes still pending are all that matter: the
    /// tree is emptied when none is, and rebuilt from them when it has grown well past them (so
    /// that, under a steady load that never drains, it stays in proportion to what is pending).
    private mutating func forgetPublishedPaths() {
        if pending.isEmpty {
            pendingPaths.removeAll()
        } else if pendingPaths.noted > 4 * pending.count + 1_024 {
            pendingPaths.removeAll()
            for write in pending { Self.note(write, in: &pendingPaths) }
        }
    }

    /// Takes the answers that wait for the write `sequence` to be published.
    mutating func acknowledgements(of sequence: UInt64) -> [Acknowledgement] {
        acknowledgements.removeValue(forKey: sequence) ?? []
    }

    /// A batch could not be stored: it and everything applied after it are refused (the engine
    /// goes back to the stored tree), except the server's own writes and onDisconnect changes,
    /// which are handed back to be applied and tried again.
    mutating func refuse(_ batch: Batch) -> Refusal {
        var refusal = Refusal()
        for write in batch.writes + pending {
            if write.byServer {
                refusal.kept.append(write)
            } else {
                refusal.refused += 1
                refusal.acknowledgements += acknowledgements(of: write.record.sequence)
            }
        }
        pending = []
        pendingPaths.removeAll()
        // Acknowledgements of keyed writes sent again wait for the refused write they name.
        for sequence in acknowledgements.keys where sequence > durableSequence {
            refusal.acknowledgements += acknowledgements(of: sequence)
        }
        checkpoints.refused(batch.writes.count, checkpoint: batch.checkpoint)
        var changes = inFlightOnDisconnect
        for (sessionID, change) in pendingOnDisconnect { changes[sessionID] = change }
        inFlightOnDisconnect = [:]
        pendingOnDisconnect = [:]
        for (sessionID, change) in changes {
            if let outletID = change.outletID {
                refusal.onDisconnectRestored.append((outletID, storedOnDisconnect[sessionID]))
            } else {
                pendingOnDisconnect[sessionID] = change
            }
        }
        // Every change up to now is decided: stored before, kept as pending, or refused.
        let decided = durableOnDisconnectTicket
        durableOnDisconnectTicket = onDisconnectTicket
        if !pendingOnDisconnect.isEmpty { onDisconnectTicket += 1 }
        refusal.released = held.refuse(after: decided)
        resumeWaiters(refused: true)
        return refusal
    }

    /// Holds `item` for `outlet` until the onDisconnect change `ticket` is stored, after every
    /// message held before it for that outlet; returns it instead when it may leave now.
    ///
    /// - Parameter refusal: Sent instead if that change is refused.
    mutating func hold(
        _ item: OutboundItem, for outlet: Outlet, ticket: UInt64 = 0, refusal: OutboundItem? = nil
    ) -> OutboundItem? {
        held.hold(item, for: outlet, ticket: ticket, stored: durableOnDisconnectTicket, refusal: refusal)
    }

    /// Answers a write request once the write `sequence` is published: true when it is already.
    mutating func acknowledge(_ sequence: UInt64, outlet: Outlet, number: Int) -> Bool {
        if sequence <= durableSequence { return true }
        acknowledgements[sequence, default: []].append(Acknowledgement(outlet: outlet, number: number))
        return false
    }

    /// Resumes `continuation` with true once every write up to `sequence` is durable (at once if
    /// it is), with false if it is refused or the pipeline abandoned first.
    mutating func wait(for sequence: UInt64, _ continuation: CheckedContinuation<Bool, Never>) {
        if sequence <= durableSequence {
            continuation.resume(returning: true)
        } else {
            waiters.append((sequence, continuation))
        }
    }

    /// Resumes the waiters whose write is stored with true; with `refused`, every other one
    /// with false (the engine goes back to ``durableSequence``, and numbers after it are made
    /// again).
    private mutating func resumeWaiters(refused: Bool = false) {
        guard !waiters.isEmpty else { return }
        var waiting: [(sequence: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        for waiter in waiters {
            if waiter.sequence <= durableSequence {
                waiter.continuation.resume(returning: true)
            } else if refused {
                waiter.continuation.resume(returning: false)
            } else {
                waiting.append(waiter)
            }
        }
        waiters = waiting
    }

    /// Gives up on what is not durable (the namespace closes while its disk fails).
    ///
    /// The held messages and acknowledgements are dropped, never sent, and the waiters told it
    /// was not stored. Returns how many writes that leaves behind, none of them acknowledged.
    mutating func abandon() -> Int {
        let lost = pending.count
        pending = []
        pendingOnDisconnect = [:]
        inFlightOnDisconnect = [:]
        checkpoints.abandon()
        held.removeAll()
        acknowledgements = [:]
        pendingPaths.removeAll()
        for waiter in waiters { waiter.continuation.resume(returning: false) }
        waiters = []
        return lost
    }
}
