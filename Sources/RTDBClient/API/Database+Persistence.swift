import Foundation
import RTDBCore

/// Why a persistence setting was refused.
public struct PersistenceSettingError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public var description: String
}

extension Database {
    /// Whether data and pending writes are kept on disk, in one SQLite file per database URL.
    ///
    /// Set it before first use; a change after that is refused (and logged).
    public var isPersistenceEnabled: Bool {
        get { withState { $0.settings.persistenceEnabled } }
        set {
            guard !refuseAfterStart("isPersistenceEnabled") else { return }
            withState { $0.settings.persistenceEnabled = newValue }
        }
    }

    /// The disk cache size in bytes: 10 MB by default, 1–100 MB allowed.
    ///
    /// A value outside that range is refused and logged, keeping the current one; use
    /// ``setPersistenceCacheSizeBytes(_:)`` to get the error thrown.
    public var persistenceCacheSizeBytes: Int {
        get { withState { $0.settings.cacheSize } }
        set {
            do {
                try setPersistenceCacheSizeBytes(newValue)
            } catch {
                logger.error("\(error)")
            }
        }
    }

    /// Sets the disk cache size, throwing when it is outside 1–100 MB or persistence has started.
    public func setPersistenceCacheSizeBytes(_ bytes: Int) throws(PersistenceSettingError) {
        guard CachePolicy.allowedSizes.contains(bytes) else {
            throw PersistenceSettingError(
                description:
                    "persistenceCacheSizeBytes must be between 1 MB (1048576) and 100 MB (104857600); got \(bytes)")
        }
        guard !isStarted else {
            throw PersistenceSettingError(
                description: "persistenceCacheSizeBytes must be set before the database is used")
        }
        withState { $0.settings.cacheSize = bytes }
    }

    /// The bound of ``persistenceMaxPendingBytes`` unless set: 100 MB.
    public static let defaultMaxPendingBytes = WriteQueueLimits.defaultMaxPendingBytes

    /// The most bytes the write queue's data may take (as stored, JSON text): 100 MB by default.
    ///
    /// A write that would pass it fails at once with `queue_full`, naming the queue's size, and
    /// is neither applied nor queued; writes are taken again as the queue drains. Without it, an
    /// app offline long enough grows its file until it cannot start. It may be changed at any
    /// time; a queue already past a lowered bound keeps every write. Values below 1 are refused
    /// and logged; use ``setPersistenceMaxPendingBytes(_:)`` to get the error thrown.
    public var persistenceMaxPendingBytes: Int {
        get { withState { $0.settings.maxPendingBytes } }
        set {
            do {
                try setPersistenceMaxPendingBytes(newValue)
            } catch {
                logger.error("\(error)")
            }
        }
    }

    /// Sets the write queue's bound, throwing when it is below 1 byte.
    public func setPersistenceMaxPendingBytes(_ bytes: Int) throws(PersistenceSettingError) {
        guard bytes >= 1 else {
            throw PersistenceSettingError(description: "persistenceMaxPendingBytes must be at least 1; got \(bytes)")
        }
        let started = withState { state -> Repo? in
            state.settings.maxPendingBytes = bytes
            return state.repo
        }
        started?.setMaxPendingBytes(bytes)
    }

    /// The bytes the queued writes' data takes now (as stored), against
    /// ``persistenceMaxPendingBytes``.
    public var pendingWriteBytes: Int {
        repo.pendingWriteBytes()
    }

    /// Sets the cache size without the 1 MB floor, for tests of pruning.
    func setCacheSizeForTesting(_ bytes: Int) { withState { $0.settings.cacheSize = bytes } }

    /// Where the SQLite files go (set it before first use).
    ///
    /// Nil means `$XDG_STATE_HOME/presencetop/`, by default `~/.local/state/presencetop/`.
    public var persistenceDirectory: URL? {
        get { withState { $0.settings.persistenceDirectory } }
        set {
            guard !refuseAfterStart("persistenceDirectory") else { return }
            withState { $0.settings.persistenceDirectory = newValue }
        }
    }

    /// The SQLite file's name in ``persistenceDirectory`` (set it before first use).
    ///
    /// Nil names it after the URL. Set a name when the URL changes between runs but the data is
    /// the same (a client behind a proxy on an ephemeral port, say), so queued writes and the
    /// cache are found again.
    public var persistenceFileName: String? {
        get { withState { $0.settings.persistenceFileName } }
        set {
            guard !refuseAfterStart("persistenceFileName") else { return }
            withState { $0.settings.persistenceFileName = newValue }
        }
    }

    /// The directory used when ``persistenceDirectory`` is nil.
    public static var defaultPersistenceDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            return URL(fileURLWithPath: state).appendingPathComponent("presencetop")
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/state/presencetop")
    }

    /// How many writes wait in the queue of a persistence file, read without starting a database
    /// (to decide what to do with a file an earlier run left).
    ///
    /// - Throws: The SQLite error when the file is not a persistence file.
    public static func queuedWriteCount(inPersistenceFile file: URL) throws -> Int {
        let store = try ClientStore(path: file.path)
        return try store.queuedWriteCount()
    }

    /// The SQLite file for this database's URL in `directory`.
    func persistenceFile(in directory: URL?, named fileName: String? = nil) -> URL {
        let name = (fileName ?? "\(socketBase)_\(namespace)").map {
            $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_"
        }
        return (directory ?? Database.defaultPersistenceDirectory).appendingPathComponent(String(name) + ".sqlite")
    }

    private func refuseAfterStart(_ setting: String) -> Bool {
        guard isStarted else { return false }
        logger.error("\(setting) must be set before the database is used; the change is ignored")
        return true
    }

    /// Why this device's store does not take writes now (a full or failing disk); nil when it
    /// does, or without persistence.
    public var storeFailure: StoreFailure? { repo.storeFailure() }

    /// What the disk cache holds; nil without persistence.
    ///
    /// Bytes per top-level path, tracked queries (complete, active, keepSynced), and what the next
    /// prune would remove.
    public func cacheReport() -> CacheReport? {
        repo.cacheReport()
    }

    /// Empties the disk cache (the write queue is kept; listeners keep their data in memory).
    public func clearPersistentCache() {
        repo.clearCache()
    }
}
