import Foundation

/// What an app sets on a database before its first use, which the engine is made with:
/// persistence and its file, the cache's and the write queue's bounds, the retry policy, and a
/// token provider.
struct DatabaseSettings {
    /// Whether writes and the cache are kept on disk.
    var persistenceEnabled = false
    /// The folder of the file (the default one when nil).
    var persistenceDirectory: URL?
    /// The file's name (made from the URL when nil).
    var persistenceFileName: String?
    /// The cache's size limit.
    var cacheSize = 10 * 1024 * 1024
    /// The most bytes the write queue's data may take.
    var maxPendingBytes = Database.defaultMaxPendingBytes
    /// Runs on the engine's queue before the file is opened (tests hold the start here).
    var beforeOpeningPersistence: (@Sendable () -> Void)?
    /// How the connection retries and keeps alive.
    var retryPolicy = RetryPolicy()
    /// A token provider set before the engine started: the engine asks it before it connects.
    var tokenProvider: (any DatabaseTokenProvider)?

    /// Where and how much the engine keeps on disk, in `file`; nil without persistence.
    func persistence(in file: URL) -> PersistenceSettings? {
        guard persistenceEnabled else { return nil }
        return PersistenceSettings(file: file, cacheSizeBytes: cacheSize, beforeOpening: beforeOpeningPersistence)
    }
}
