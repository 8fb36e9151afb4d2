import Synchronization

/// What a connection or stream is sent, in order.
public enum OutboundItem: Sendable, Equatable {
    /// A protocol v5 message, as JSON text (the session frames it).
    case wire(String)
    /// A Server-Sent Event.
    case event(name: String, data: String)
    /// Close the connection (after everything queued before).
    case close
}

/// The sending end of one client: a WebSocket session or an SSE stream.
///
/// The engine queues items in the order they must be sent; the transport takes everything queued
/// so far in one batch, so that many messages share one socket write under load.
public final class Outlet: Sendable {
    private struct State {
        var items: [OutboundItem] = []
        var finished = false
        var waiter: CheckedContinuation<[OutboundItem]?, Never>?
    }

    /// Unique within the server process.
    public let id: Int
    private let state = Mutex(State())
    private static let counter = Atomic<Int>(0)

    /// Makes an outlet with a fresh id.
    public init() {
        self.id = Outlet.counter.add(1, ordering: .relaxed).newValue
    }

    /// Queues an item.
    public func send(_ item: OutboundItem) {
        let waiter = state.withLock { state -> CheckedContinuation<[OutboundItem]?, Never>? in
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

    /// Ends the outlet; a waiting or later `nextBatch()` returns what is left, then nil.
    public func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[OutboundItem]?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Everything queued since the last call, waiting for at least one item; nil once finished.
    public func nextBatch() async -> [OutboundItem]? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [OutboundItem]?? in
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
