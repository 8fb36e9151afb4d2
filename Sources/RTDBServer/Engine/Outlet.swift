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
/// The engine hands items over in the order they must be sent. Either the transport takes
/// everything queued so far in one batch (``nextBatch()``), or the outlet hands each item straight
/// to the transport's sink, which batches on its own (a WebSocket session writes on its channel's
/// event loop, with no task of its own waiting for items).
public final class Outlet: Sendable {
    /// Unique within the server process.
    public let id: Int
    private let queue: BatchQueue<OutboundItem>?
    private let sink: (@Sendable (OutboundItem) -> Void)?
    private let finished = Atomic<Bool>(false)
    private static let counter = Atomic<Int>(0)

    /// Makes an outlet whose items wait in a queue for ``nextBatch()``.
    public init() {
        self.id = Outlet.counter.add(1, ordering: .relaxed).newValue
        self.queue = BatchQueue()
        self.sink = nil
    }

    /// Makes an outlet that hands every item to `sink` as it is sent, until ``finish()``.
    ///
    /// `sink` is called from the sender's context (the engine's actor), so it must only queue.
    public init(sink: @escaping @Sendable (OutboundItem) -> Void) {
        self.id = Outlet.counter.add(1, ordering: .relaxed).newValue
        self.queue = nil
        self.sink = sink
    }

    /// Queues an item (dropped once finished).
    public func send(_ item: OutboundItem) {
        if let queue {
            queue.append(item)
        } else if !finished.load(ordering: .acquiring) {
            sink?(item)
        }
    }

    /// Ends the outlet; the transport gets what is left, then nil.
    public func finish() {
        finished.store(true, ordering: .releasing)
        queue?.finish()
    }

    /// Everything queued since the last call, waiting for at least one item; nil once finished
    /// (at once for an outlet with a sink).
    public func nextBatch() async -> [OutboundItem]? { await queue?.nextBatch() }
}
