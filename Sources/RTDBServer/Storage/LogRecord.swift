import RTDBCore

/// One applied write as it is made durable: server values already resolved, so replaying the
/// log rebuilds exactly the same tree.
public struct LogRecord: Sendable, Hashable {
    /// How the record changes the tree.
    public enum Kind: Int, Sendable {
        /// Replace the node at `path` with `data`.
        case set = 0
        /// For each relative path in the `data` object, replace the node there.
        case merge = 1
    }

    /// The position of the write in the namespace's total order (from 1).
    public var sequence: UInt64
    /// Where the write applies.
    public var path: Path
    /// Set or merge.
    public var kind: Kind
    /// Export-format JSON text of the resolved data.
    public var data: String
    /// The client's idempotency key for the write, when it sent one.
    public var idempotencyKey: String?

    /// Makes a record.
    public init(sequence: UInt64, path: Path, kind: Kind, data: String, idempotencyKey: String? = nil) {
        self.sequence = sequence
        self.path = path
        self.kind = kind
        self.data = data
        self.idempotencyKey = idempotencyKey
    }

    /// Applies the record to a tree.
    public func apply(to root: Node) throws -> Node {
        let json = try JSONParser.parse(data)
        switch kind {
        case .set:
            return root.updating(at: path, with: try Node(json: json, at: path))
        case .merge:
            var result = root
            for (relative, value) in json.objectValue ?? [:] {
                let target = path.child(relative)
                result = result.updating(at: target, with: try Node(json: value, at: target))
            }
            return result
        }
    }
}

/// A consistent copy of the whole tree for compaction: the tree as of `sequence`, and which
/// top-level keys changed since the previous checkpoint (nil: rewrite everything).
public struct Checkpoint: Sendable {
    /// The tree.
    public var root: Node
    /// The last write the tree includes.
    public var sequence: UInt64
    /// Top-level keys written since the last checkpoint, or nil for all.
    public var dirtyKeys: Set<String>?

    /// Makes a checkpoint.
    public init(root: Node, sequence: UInt64, dirtyKeys: Set<String>?) {
        self.root = root
        self.sequence = sequence
        self.dirtyKeys = dirtyKeys
    }
}

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
}

/// A store that keeps nothing: `presencetop serve --memory`.
public struct MemoryStore: DurableStore {
    /// Makes a memory store.
    public init() {}
    /// An empty tree.
    public func load() async throws -> (root: Node, sequence: UInt64) { (.empty, 0) }
    /// No keys.
    public func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)] { [] }
    /// Nothing to do.
    public func append(_ records: [LogRecord], checkpoint: Checkpoint?) async throws {}
    /// Always true.
    public var isVolatile: Bool { true }
    /// Nothing to do.
    public func close() async throws {}
}
