import Synchronization

/// A count of changes others can wait on: each ``signal()`` (a session ended, a message refused,
/// a heartbeat tick judged, a scrape answered) wakes whoever waits for a change after the one
/// they last saw.
///
/// A barrier for tests and tools that watch figures kept elsewhere: note ``generation``, look,
/// and if what is wanted is not there yet, wait with ``changed(after:)``; a change between the
/// look and the wait is not lost.
///
/// A signal nobody waits on costs two atomic operations and no lock (the server signals its
/// connection table's on every read a session gets).
public final class ChangeSignal: Sendable {
    private struct State {
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())
    /// How many changes there have been.
    private let count = Atomic<Int>(0)
    /// How many waiters are registered, or registering (counted before they look at ``count``).
    private let waiting = Atomic<Int>(0)

    /// No changes yet.
    public init() {}

    /// How many changes there have been.
    public var generation: Int { count.load(ordering: .sequentiallyConsistent) }

    /// Notes a change and wakes every waiter.
    ///
    /// A waiter counts itself in ``waiting`` before it reads ``count``, and this bumps ``count``
    /// before it reads ``waiting``: in the one order of sequentially consistent operations, either
    /// the waiter sees the change, or this sees the waiter and takes the lock, which the waiter
    /// holds until it is registered.
    public func signal() {
        count.add(1, ordering: .sequentiallyConsistent)
        guard waiting.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let woken = Array(state.waiters.values)
            state.waiters.removeAll()
            waiting.subtract(woken.count, ordering: .sequentiallyConsistent)
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once there has been a change after `generation` (at once if there has), or the
    /// task is cancelled.
    public func changed(after generation: Int) async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    waiting.add(1, ordering: .sequentiallyConsistent)
                    if count.load(ordering: .sequentiallyConsistent) > generation || Task.isCancelled {
                        waiting.subtract(1, ordering: .sequentiallyConsistent)
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
                waiting.subtract(1, ordering: .sequentiallyConsistent)
                return waiter
            }
            waiter?.resume()
        }
    }
}
