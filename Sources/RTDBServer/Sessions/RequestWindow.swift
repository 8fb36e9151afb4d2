import Synchronization

/// How many of a connection's requests may wait for its namespace at once: the reader enters
/// before it queues a request and waits while the window is full; the namespace's handler leaves
/// for each request it has handled.
///
/// Waiting stops the reading of that connection's socket, so a client that pipelines faster than
/// the namespace answers is slowed by TCP, and nothing it sent is dropped.
final class RequestWindow: Sendable {
    private struct State {
        var inside = 0
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let size: Int
    private let state = Mutex(State())

    /// Makes a window of `size` requests.
    init(size: Int) {
        self.size = max(1, size)
    }

    /// Whether the window is full now (the next ``enter()`` waits).
    var isFull: Bool { state.withLock { $0.inside >= size } }

    /// Takes a place if there is one (or the window is closed); `false` if it is full.
    func tryEnter() -> Bool {
        state.withLock { admit(&$0) }
    }

    /// The one admission rule: a place is free, or the window closed.
    private func admit(_ state: inout State) -> Bool {
        guard state.closed || state.inside < size else { return false }
        state.inside += 1
        return true
    }

    /// Takes a place, waiting while the window is full (or returning at once once closed).
    func enter() async {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state in
                if admit(&state) { return true }
                state.waiter = continuation
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives back `count` places.
    func leave(_ count: Int = 1) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.inside = max(0, state.inside - count)
            guard state.inside < size, let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.inside += 1
            return waiter
        }
        waiter?.resume()
    }

    /// Lets any waiting reader go: the connection is ending.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
