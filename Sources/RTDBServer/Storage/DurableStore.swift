import RTDBCore

/// Where a namespace's data lives: loaded once at start, then appended to in batches.
public protocol DurableStore: Sendable {
    /// Reads the tree and the sequence number of the last durable write.
    func load() async throws -> (root: Node, sequence: UInt64)
    /// The idempotency keys of the newest keyed writes, oldest first (at most `limit`).
    func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)]
    /// Makes `records` durable in one transaction (a group commit), together with a checkpoint.
    func append(_ records: [LogRecord], checkpoint: Checkpoint?) async throws
    /// Whether appends are immediate (nothing to wait for).
    var isVolatile: Bool { get }
    /// Releases files.
    func close() async throws
    /// Makes sure writes can be stored (creates what a first write needs), so that a write that
    /// could not be stored is refused before it is applied.
    func prepareForWrites() throws
}

extension DurableStore {
    /// Nothing to prepare.
    public func prepareForWrites() throws {}
}
