import RTDBCore
import RTDBWire

/// A namespace's data as its engine keeps it: the working tree every write is judged on and
/// changes, the stored tree readers see, the number of the last write applied, and the writes
/// applied under an idempotency key (docs/reliability.md), and the names it makes for pushes.
///
/// The engine's pure core of a write's apply: it says what the log records; the engine hands
/// that to the durability pipeline and publishes once stored.
struct NamespaceData {
    /// The working tree: every applied write, stored or not.
    private(set) var working: Node
    /// The stored tree: what reads, listens and streams see (as of the durable sequence).
    var served: Node
    /// The sequence number of the last write applied.
    private(set) var appliedSequence: UInt64
    private var appliedKeys = AppliedKeys()
    private var pushIDs = PushIDGenerator()

    /// The data a store loaded: `root` as of write `sequence`, with the keys of the writes
    /// applied under one.
    init(root: Node, sequence: UInt64, keys: [(key: String, sequence: UInt64)] = []) {
        working = root
        served = root
        appliedSequence = sequence
        for (key, sequence) in keys { appliedKeys.insert(key, sequence: sequence) }
    }

    /// The number of the write applied under the scoped idempotency `key`, if one was.
    func sequence(ofKey key: String) -> UInt64? { appliedKeys.sequence(of: key) }

    /// A new child's name for a push made at `now` (REST `POST`), after every name made before.
    mutating func pushName(now: UnixTime) -> String { pushIDs.next(now: now) }

    /// Remembers the keys of writes a store loaded.
    mutating func remember(_ keys: [(key: String, sequence: UInt64)]) {
        for (key, sequence) in keys { appliedKeys.insert(key, sequence: sequence) }
    }

    /// Applies `change` as the next write and returns its record for the log.
    ///
    /// - Parameters:
    ///   - newRoot: The working tree with the change made, when the rules made it while judging
    ///     it; otherwise the change is made in the working tree in place.
    ///   - recordText: The change's data as JSON text already (as it came); nil makes it from the
    ///     change, and a store that keeps nothing (`volatile`) gets none.
    mutating func apply(
        _ change: TreeChange, newRoot: Node?, idempotencyKey: String?, recordText: String?, volatile: Bool
    ) -> LogRecord {
        if let newRoot { working = newRoot } else { change.apply(to: &working) }
        appliedSequence += 1
        if let idempotencyKey { appliedKeys.insert(idempotencyKey, sequence: appliedSequence) }
        return LogRecord(
            sequence: appliedSequence, path: change.path, kind: change.kind,
            data: volatile ? "" : recordText ?? change.recordText, idempotencyKey: idempotencyKey)
    }

    /// A batch the disk did not take: the working tree goes back to the stored one, as of write
    /// `durable`, and the keys of the writes after it are forgotten.
    mutating func rollBack(to durable: UInt64) {
        working = served
        appliedSequence = durable
        appliedKeys.forget(after: durable)
    }
}
