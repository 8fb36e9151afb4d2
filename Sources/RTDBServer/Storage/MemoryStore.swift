import RTDBCore

/// A store that keeps nothing: `presencetop serve --memory`.
public struct MemoryStore: DurableStore {
    /// Makes a memory store.
    public init() {}
    /// An empty tree.
    public func load() async throws -> (root: Node, sequence: UInt64) { (.empty, 0) }
    /// No keys.
    public func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)] { [] }
    /// No onDisconnect writes outlive the process.
    public func loadOnDisconnect() async throws -> [OnDisconnectRecord] { [] }
    /// Nothing to do.
    public func append(_ records: [LogRecord], onDisconnect: [OnDisconnectRecord], checkpoint: Checkpoint?)
        async throws
    {}
    /// Always true.
    public var isVolatile: Bool { true }
    /// Nothing to do.
    public func close() async throws {}
}
