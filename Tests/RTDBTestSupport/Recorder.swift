import Synchronization

/// Collects values from callbacks on any thread, for assertions; a test can wait on it for a
/// value, woken by the value itself rather than by polling.
public final class Recorder<Value: Sendable>: Sendable {
    private struct Waiter {
        var id: Int
        var holds: @Sendable ([Value]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var values: [Value] = []
        var waiters: [Waiter] = []
        var nextID = 0
        /// Waits whose time ran out before they were registered.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())

    /// Makes an empty recorder.
    public init() {}

    /// Keeps a value, and wakes the waits it satisfies.
    public func record(_ value: Value) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.values.append(value)
            let values = state.values
            let (done, waiting) = (
                state.waiters.filter { $0.holds(values) }, state.waiters.filter { !$0.holds(values) }
            )
            state.waiters = waiting
            return done.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Every value so far, oldest first.
    public var all: [Value] { state.withLock { $0.values } }

    /// The newest value.
    public var last: Value? { state.withLock { $0.values.last } }

    /// Waits until the values so far satisfy `holds`, or `timeout` passes; whether they did.
    ///
    /// `holds` is checked now and at each value recorded: a barrier on the values, not a poll.
    /// With no `timeout` it waits for the values alone (whatever ends them must also satisfy
    /// `holds`, as a child process's exit does for its output).
    public func wait(timeout: Duration? = .seconds(20), until holds: @escaping @Sendable ([Value]) -> Bool) async
        -> Bool
    {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let timer = Task {
            guard let timeout else { return }
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.expired.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            expired?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if holds(state.values) { return true }
                if state.expired.remove(id) != nil { return false }
                state.waiters.append(Waiter(id: id, holds: holds, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
