import Foundation
import RTDBCore
import Synchronization

/// A namespace's ``SQLiteStore``, created by the namespace's first write.
///
/// A namespace nobody has written to has nothing on disk: a request the rules refuse, or a read of
/// a namespace that does not exist, opens no file and holds no descriptor. An existing file is
/// opened at once, as a plain ``SQLiteStore`` would be.
public final class DeferredSQLiteStore: DurableStore {
    /// The file's path.
    public let path: String
    private let opened: Mutex<SQLiteStore?>

    /// Opens the file at `path` if it exists; otherwise nothing until the first append.
    public init(path: String) throws {
        self.path = path
        opened = Mutex(FileManager.default.fileExists(atPath: path) ? try SQLiteStore(path: path) : nil)
    }

    /// Whether the file exists (this store opened or created it).
    public var isCreated: Bool { opened.withLock { $0 != nil } }

    private func store(creating: Bool) throws -> SQLiteStore? {
        try opened.withLock { store in
            if store == nil, creating { store = try SQLiteStore(path: path) }
            return store
        }
    }

    /// The stored tree, or an empty one before the first write.
    public func load() async throws -> (root: Node, sequence: UInt64) {
        guard let store = try store(creating: false) else { return (.empty, 0) }
        return try await store.load()
    }

    /// The stored idempotency keys, or none before the first write.
    public func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)] {
        try await store(creating: false)?.loadAppliedKeys(limit: limit) ?? []
    }

    /// The stored onDisconnect writes, or none before the first write.
    public func loadOnDisconnect() async throws -> [OnDisconnectRecord] {
        try await store(creating: false)?.loadOnDisconnect() ?? []
    }

    /// Commits the records, creating the file for the first of them (or the first stored
    /// onDisconnect write); a checkpoint alone of a namespace never written has nothing to keep.
    public func append(_ records: [LogRecord], onDisconnect: [OnDisconnectRecord], checkpoint: Checkpoint?)
        async throws
    {
        let creating = !records.isEmpty || onDisconnect.contains { !$0.isRemoval }
        guard let store = try store(creating: creating) else { return }
        try await store.append(records, onDisconnect: onDisconnect, checkpoint: checkpoint)
    }

    /// Creates the file now if it does not exist yet.
    public func prepareForWrites() throws {
        _ = try store(creating: true)
    }

    /// False: appends wait for the disk.
    public var isVolatile: Bool { false }

    /// Closes the file, if there is one.
    public func close() async throws {
        try await store(creating: false)?.close()
    }
}
