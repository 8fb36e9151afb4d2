import Synchronization

/// How many of a connection's requests may wait for its namespace at once: the reader enters
/// before it queues a request and, while the window is full, stops reading until a place is
/// free; the namespace's handler leaves for each request it has handled.
///
/// Waiting stops the reading of that connection's socket, so a client that pipelines faster than
/// the namespace answers is slowed by TCP, and nothing it sent is dropped.
final class RequestWindow: Sendable {
    private struct State {
        var inside = 0
        var waiter: (@Sendable () -> Void)?
        var closed = false
    }

    private let size: Int
    private let state = Mutex(State())

    /// Makes a window of `size` requests.
    init(size: Int) {
        self.size = max(1, size)
    }

    /// The one admission rule: a place is free, or the window closed.
    private func admit(_ state: inout State) -> Bool {
        guard state.closed || state.inside < size else { return false }
        state.inside += 1
        return true
    }

    /// Takes a place if there is one (or the window is closed); `false` if the window is full.
    ///
    /// When full, `admitted` is called once a place has been taken for the caller (or the window
    /// closed). One waiter at a time: the reader stops reading while it waits.
    func enter(whenAdmitted admitted: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            if admit(&state) { return true }
            state.waiter = admitted
            return false
        }
    }

    /// Gives back `count` places.
    func leave(_ count: Int = 1) {
        let waiter = state.withLock { state -> (@Sendable () -> Void)? in
            state.inside = max(0, state.inside - count)
            guard state.inside < size, let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.inside += 1
            return waiter
        }
        waiter?()
    }

    /// Lets any waiting reader go: the connection is ending.
    func close() {
        let waiter = state.withLock { state -> (@Sendable () -> Void)? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?()
    }
}
