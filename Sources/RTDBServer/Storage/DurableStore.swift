import RTDBCore

/// Where a namespace's data lives: loaded once at start, then appended to in batches.
public protocol DurableStore: Sendable {
    /// Reads the tree and the sequence number of the last durable write.
    func load() async throws -> (root: Node, sequence: UInt64)
    /// The idempotency keys of the newest keyed writes, oldest first (at most `limit`).
    func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)]
    /// The onDisconnect writes of sessions that had not ended when the store was last written,
    /// in the order the sessions first registered some.
    func loadOnDisconnect() async throws -> [OnDisconnectRecord]
    /// Makes `records` durable in one transaction (a group commit), together with changes to the
    /// stored onDisconnect writes (a record with none removes its session's) and a checkpoint.
    func append(_ records: [LogRecord], onDisconnect: [OnDisconnectRecord], checkpoint: Checkpoint?) async throws
    /// Whether appends are immediate (nothing to wait for).
    var isVolatile: Bool { get }
    /// Releases files.
    func close() async throws
    /// Makes sure writes can be stored (creates what a first write needs), so that a write that
    /// could not be stored is refused before it is applied.
    func prepareForWrites() throws
}

extension DurableStore {
    /// Makes `records` durable in one transaction, with a checkpoint.
    public func append(_ records: [LogRecord], checkpoint: Checkpoint?) async throws {
        try await append(records, onDisconnect: [], checkpoint: checkpoint)
    }

    /// Nothing to prepare.
    public func prepareForWrites() throws {}
}
