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
    /// Unique within the server process.
    public let id: Int
    private let queue = BatchQueue<OutboundItem>()
    private static let counter = Atomic<Int>(0)

    /// Makes an outlet with a fresh id.
    public init() {
        self.id = Outlet.counter.add(1, ordering: .relaxed).newValue
    }

    /// Queues an item.
    public func send(_ item: OutboundItem) { queue.append(item) }

    /// Ends the outlet; the transport gets what is left, then nil.
    public func finish() { queue.finish() }

    /// Everything queued since the last call, waiting for at least one item; nil once finished.
    public func nextBatch() async -> [OutboundItem]? { await queue.nextBatch() }
}
