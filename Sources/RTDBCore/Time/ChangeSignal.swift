import Synchronization

/// A count of changes others can wait on: each ``signal()`` (a session ended, a message refused,
/// a heartbeat tick judged, a scrape answered) wakes whoever waits for a change after the one
/// they last saw.
///
/// A barrier for tests and tools that watch figures kept elsewhere: note ``generation``, look,
/// and if what is wanted is not there yet, wait with ``changed(after:)``; a change between the
/// look and the wait is not lost.
public final class ChangeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextWaiter = 0
        var waiters: [Int: (after: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    /// No changes yet.
    public init() {}

    /// How many changes there have been.
    public var generation: Int { state.withLock { $0.generation } }

    /// Notes a change and wakes every waiter.
    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            let woken = state.waiters.values.map(\.continuation)
            state.waiters.removeAll()
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
                    if state.generation > generation || Task.isCancelled { return true }
                    state.waiters[id] = (generation, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }
}
