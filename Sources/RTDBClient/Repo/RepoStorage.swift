/// The repo's disk, when persistence is on: the SQLite file, the cache and tracked queries over
/// it, whether a save is already on the queue, and what the start restored and has not finished
/// with.
struct RepoStorage {
    /// The SQLite file.
    var store: ClientStore?
    /// The disk cache and tracked queries.
    var persistence: PersistenceManager?
    /// Whether a save of what acknowledgements left in memory is on the queue.
    var flushScheduled = false
    /// What the start restored from disk and has not finished with.
    var restored = RestoredQueue()
}
