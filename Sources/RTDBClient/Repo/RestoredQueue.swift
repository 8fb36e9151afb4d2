import RTDBCore

/// What a start restored from disk and has not finished with: writes replayed locally but not
/// yet handed to the connection, when they were replayed, and the keepSynced queries declared
/// again.
struct RestoredQueue {
    /// Writes replayed locally, not yet handed to the connection (``Repo/handOverRestoredWrites()``).
    var unsent: [StoredWrite] = []
    /// When they were replayed (`DispatchTime` nanoseconds), for the hand-over's log.
    var replayedAt: UInt64 = 0
    /// keepSynced queries saved by an earlier run.
    var keepSynced: [QuerySpec] = []
}
