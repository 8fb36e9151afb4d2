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
/// The engine yields items into it in the order they must be sent; the transport drains
/// `items`. Closing is idempotent.
public final class Outlet: Sendable {
    /// Unique within the server process.
    public let id: Int
    /// What is to be sent.
    public let items: AsyncStream<OutboundItem>
    private let continuation: AsyncStream<OutboundItem>.Continuation
    private static let counter = Atomic<Int>(0)

    /// Makes an outlet with a fresh id.
    public init() {
        self.id = Outlet.counter.add(1, ordering: .relaxed).newValue
        (items, continuation) = AsyncStream.makeStream(of: OutboundItem.self)
    }

    /// Queues an item.
    public func send(_ item: OutboundItem) {
        continuation.yield(item)
    }

    /// Ends the stream of items.
    public func finish() {
        continuation.finish()
    }
}
