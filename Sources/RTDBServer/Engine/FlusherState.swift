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

    /// Whether the flusher is parked, waiting for work.
    var isParked: Bool { parked != nil }

    /// Wakes the flusher if it is parked.
    mutating func wake() {
        parked?.resume()
        parked = nil
    }

    /// A commit worked: the failure it ends, if commits failed until now (to say so once).
    mutating func committed() -> (since: UnixTime, attempts: Int)? {
        defer { failure = nil }
        return failure
    }

    /// A commit failed at `now`; true for the first of a run of failures (to say so once).
    mutating func failed(at now: UnixTime) -> Bool {
        let first = failure == nil
        if first { failure = (now, 0) }
        failure?.attempts += 1
        return first
    }
}
