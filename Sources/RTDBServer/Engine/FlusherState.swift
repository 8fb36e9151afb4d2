import RTDBCore

/// The life of a namespace's flusher (the task that commits batches): parked or committing,
/// whether commits fail, and whether the namespace is closing or gave up on its disk.
struct FlusherState {
    /// The flusher's task, once started (none for a store that keeps nothing).
    var task: Task<Void, Never>?
    /// Whether it waits on the store for a commit now.
    var isCommitting = false
    /// Since when commits fail, and how often they have (nil: they work).
    var failure: (since: UnixTime, attempts: Int)?
    /// Whether the namespace is closed (the flusher commits what is left, then stops).
    var isClosed = false
    /// Whether the stop gave up what the disk had not stored.
    var stopGaveUp = false
    /// The flusher, parked until there is work.
    private var parked: CheckedContinuation<Void, Never>?

    /// Parks the flusher until ``wake()``.
    mutating func park(_ continuation: CheckedContinuation<Void, Never>) { parked = continuation }

    /// Wakes the flusher if it is parked.
    mutating func wake() {
        parked?.resume()
        parked = nil
    }

    /// Whether it still has something to finish: a failure to retry, a commit under way, or
    /// writes in `durability`.
    func isBusy(with durability: DurabilityPipeline) -> Bool {
        failure != nil || isWorking(on: durability)
    }

    /// Whether a commit is under way or `durability` holds writes to commit.
    func isWorking(on durability: DurabilityPipeline) -> Bool { isCommitting || durability.hasWork }
}
