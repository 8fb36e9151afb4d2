import DequeModule
import OrderedCollections
import RTDBCore

/// A namespace's way to the disk: what is applied but not yet committed, what is committed, and
/// what waits for that (outgoing messages, callers of `waitUntilDurable`).
///
/// Values only, owned by the `DatabaseEngine` actor, which runs the flusher (the task that
/// commits each ``Batch`` and reports back with ``committed(_:)`` or ``failed(_:)``). Every
/// rule of the pipeline lives here: nothing leaves before the state it reflects is durable, a
/// batch that failed goes back in front of what came after it, a checkpoint every
/// `checkpointInterval` writes.
struct DurabilityPipeline {
    /// What the flusher commits in one transaction.
    struct Batch {
        /// The writes, oldest first.
        var records: [LogRecord]
        /// The newest stored onDisconnect change of each session in it.
        var onDisconnect: [OnDisconnectRecord]
        /// The onDisconnect ticket the batch makes durable.
        var ticket: UInt64
        /// The checkpoint written with it, if one is due.
        var checkpoint: Checkpoint?
    }

    /// Something held until the state it reflects is durable.
    struct Held {
        var sequence: UInt64
        var ticket: UInt64
        var outlet: Outlet
        var item: OutboundItem
    }

    /// The newest write on disk.
    private(set) var durableSequence: UInt64
    /// Writes applied and not yet handed to the flusher.
    private var pendingRecords: [LogRecord] = []
    /// The top-level keys written since the last checkpoint (nil: the root itself).
    private var dirtyKeys: Set<CodeUnitString>? = []
    private var recordsSinceCheckpoint = 0
    private var checkpointRequested = false
    private let checkpointInterval: Int
    /// Stored onDisconnect changes not yet committed, the newest per session.
    private var pendingOnDisconnect = OrderedDictionary<String, OnDisconnectRecord>()
    /// Counts onDisconnect changes, so that an answer waits for the one it reflects.
    private(set) var onDisconnectTicket: UInt64 = 0
    private var durableOnDisconnectTicket: UInt64 = 0
    /// Messages held for durability, in the order they were sent.
    private var outbox = Deque<Held>()
    private var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []

    /// A pipeline whose store holds everything up to `sequence`.
    init(durableSequence sequence: UInt64, checkpointInterval: Int) {
        durableSequence = sequence
        self.checkpointInterval = checkpointInterval
    }

    /// Whether nothing is pending, held or waited for, with every write up to `applied` durable.
    func isSettled(applied: UInt64) -> Bool {
        pendingRecords.isEmpty && outbox.isEmpty && waiters.isEmpty && durableSequence == applied
            && pendingOnDisconnect.isEmpty && durableOnDisconnectTicket == onDisconnectTicket
    }

    /// Whether the flusher has something to commit.
    var hasWork: Bool { !pendingRecords.isEmpty || !pendingOnDisconnect.isEmpty || checkpointRequested }

    /// Takes an applied write for the next batch.
    mutating func append(_ record: LogRecord) { pendingRecords.append(record) }

    /// Takes a session's onDisconnect change for the next batch (it replaces an older one).
    mutating func append(_ record: OnDisconnectRecord) {
        pendingOnDisconnect[record.sessionID] = record
        onDisconnectTicket += 1
    }

    /// A store that keeps nothing: the write counts as durable at once.
    mutating func volatileApplied(_ sequence: UInt64) { durableSequence = sequence }

    /// Notes which top-level key a write touched, for the next checkpoint.
    mutating func markDirty(_ path: Path) {
        guard let front = path.front else {
            dirtyKeys = nil
            return
        }
        dirtyKeys?.insert(CodeUnitString(front))
    }

    /// Asks for a checkpoint with the next batch (closing the namespace).
    mutating func requestCheckpoint() { checkpointRequested = true }

    /// Takes everything pending as one batch; a checkpoint of `root` at `applied` goes with it
    /// when one is due.
    mutating func takeBatch(root: Node, applied: UInt64) -> Batch {
        let records = pendingRecords
        pendingRecords = []
        let onDisconnect = Array(pendingOnDisconnect.values)
        pendingOnDisconnect = [:]
        recordsSinceCheckpoint += records.count
        var checkpoint: Checkpoint?
        if checkpointRequested || recordsSinceCheckpoint >= checkpointInterval {
            checkpoint = Checkpoint(root: root, sequence: applied, dirtyKeys: dirtyKeys)
            dirtyKeys = []
            recordsSinceCheckpoint = 0
            checkpointRequested = false
        }
        return Batch(records: records, onDisconnect: onDisconnect, ticket: onDisconnectTicket, checkpoint: checkpoint)
    }

    /// A batch that could not be committed goes back in front of what came after it.
    mutating func failed(_ batch: Batch) {
        pendingRecords.insert(contentsOf: batch.records, at: 0)
        for record in batch.onDisconnect where pendingOnDisconnect[record.sessionID] == nil {
            // Not replaced meanwhile: still the newest for its session.
            pendingOnDisconnect[record.sessionID] = record
        }
        recordsSinceCheckpoint -= batch.records.count
        if batch.checkpoint != nil { checkpointRequested = true }
    }

    /// A batch is on disk: returns the messages that may now leave, in order, and resumes the
    /// callers waiting for it.
    mutating func committed(_ batch: Batch) -> [Held] {
        durableSequence = max(durableSequence, batch.records.last?.sequence ?? durableSequence)
        durableOnDisconnectTicket = max(durableOnDisconnectTicket, batch.ticket)
        var released: [Held] = []
        while let first = outbox.first, first.sequence <= durableSequence, first.ticket <= durableOnDisconnectTicket {
            released.append(outbox.removeFirst())
        }
        if !waiters.isEmpty {
            var waiting: [(sequence: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
            for waiter in waiters {
                if waiter.sequence <= durableSequence {
                    waiter.continuation.resume(returning: true)
                } else {
                    waiting.append(waiter)
                }
            }
            waiters = waiting
        }
        return released
    }

    /// Holds `item` for `outlet` until every write up to `applied` and the newest onDisconnect
    /// change are durable, after everything held before it; returns it instead when it may
    /// leave now.
    mutating func hold(_ item: OutboundItem, for outlet: Outlet, applied: UInt64) -> OutboundItem? {
        if outbox.isEmpty && applied <= durableSequence && onDisconnectTicket <= durableOnDisconnectTicket {
            return item
        }
        outbox.append(Held(sequence: applied, ticket: onDisconnectTicket, outlet: outlet, item: item))
        return nil
    }

    /// Resumes `continuation` with true once every write up to `sequence` is durable (at once if
    /// it is), with false if the pipeline is abandoned first.
    mutating func wait(for sequence: UInt64, _ continuation: CheckedContinuation<Bool, Never>) {
        if sequence <= durableSequence {
            continuation.resume(returning: true)
        } else {
            waiters.append((sequence, continuation))
        }
    }

    /// Gives up on what is not durable (the namespace closes while its disk fails).
    ///
    /// The held messages are dropped, never sent, and the waiters told it was not stored.
    /// Returns how many writes that leaves behind, none of them acknowledged.
    mutating func abandon() -> Int {
        let lost = pendingRecords.count
        pendingRecords = []
        pendingOnDisconnect = [:]
        checkpointRequested = false
        outbox.removeAll()
        for waiter in waiters { waiter.continuation.resume(returning: false) }
        waiters = []
        return lost
    }
}
