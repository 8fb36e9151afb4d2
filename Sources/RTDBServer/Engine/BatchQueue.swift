import Synchronization

/// A queue between one producer side and one consumer task that takes everything queued so far
/// at once: under load, work is handled in batches; when idle, each item goes at once.
public final class BatchQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var finished = false
        var waiter: CheckedContinuation<[Element]?, Never>?
    }

    private let state = Mutex(State())

    /// Makes an empty queue.
    public init() {}

    /// Queues an item (dropped once the queue is finished).
    public func append(_ item: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.items.append(item)
            return nil
        }
        waiter?.resume(returning: [item])
    }

    /// Ends the queue; the consumer gets what is left, then nil.
    public func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Everything queued since the last call, waiting for at least one item; nil once finished.
    public func nextBatch() async -> [Element]? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Element]?? in
                if !state.items.isEmpty {
                    defer { state.items = [] }
                    return .some(state.items)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
