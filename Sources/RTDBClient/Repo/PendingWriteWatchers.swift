/// Who watches the write queue: the observers told of each change (once per turn of the queue)
/// and the callers of `waitForPendingWrites`, each waiting for the writes made before it asked.
struct PendingWriteWatchers {
    /// The observers, by handle.
    var observers: [DatabaseHandle: @Sendable ([PendingWrite]) -> Void] = [:]
    /// Each waiter with the newest write id made before it asked.
    private var waiters: [(upTo: Int, waiter: @Sendable () -> Void)] = []
    /// Whether a turn of the queue will tell them already.
    var publishScheduled = false

    /// Whether nobody watches (a change then costs nothing).
    var isEmpty: Bool { observers.isEmpty && waiters.isEmpty }

    /// Whether someone waits for the queue to drain.
    var hasWaiters: Bool { !waiters.isEmpty }

    /// Adds a waiter for the writes up to `upTo`.
    mutating func wait(upTo: Int, _ waiter: @escaping @Sendable () -> Void) { waiters.append((upTo, waiter)) }

    /// Takes the waiters whose writes have all been answered (the oldest still queued is
    /// `oldestPending`, nil when none is).
    mutating func takeReady(oldestPending: Int?) -> [@Sendable () -> Void] {
        let oldest = oldestPending ?? .max
        let ready = waiters.filter { $0.upTo < oldest }.map(\.waiter)
        if !ready.isEmpty { waiters.removeAll { $0.upTo < oldest } }
        return ready
    }

    /// Takes every waiter and forgets the observers (the engine shuts down).
    mutating func takeAll() -> [@Sendable () -> Void] {
        defer {
            waiters = []
            observers = [:]
        }
        return waiters.map(\.waiter)
    }
}
