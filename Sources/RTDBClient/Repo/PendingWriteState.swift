/// The repo's write queue: the writes waiting for the server (and the dead letters), who watches
/// it or waits for it to drain, and how many bytes of data it may hold.
struct PendingWriteState {
    /// Writes waiting for the server, and the dead letters.
    var queue: PendingWriteQueue
    /// Its observers and the callers waiting for it to drain.
    var watchers = PendingWriteWatchers()
    /// The most bytes its data may take (`persistenceMaxPendingBytes`).
    var maxBytes: Int
}
