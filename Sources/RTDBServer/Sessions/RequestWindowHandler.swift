import DequeModule
import NIOCore
import NIOWebSocket

/// A live session's request window (``RequestWindow``) as a handler: each request enters the
/// window before it goes to the namespace; while the window is full, reading stops (TCP slows
/// the peer) and the requests already read wait here, in order.
///
/// The last handler of a live session's pipeline. When the connection closes, the window closes
/// and every request that waited goes on at once, in order: what was read is still the client's.
final class RequestWindowHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = SessionRequest
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let window: RequestWindow
    private let admit: (SessionRequest) -> Void
    private let paused: (Bool) -> Void
    /// Requests read while the window was full, the first of them waiting for its place.
    private var waiting = Deque<SessionRequest>()
    private var readAsked = false
    /// Whether reading is held for the window.
    private var holdsReads = false
    private var isClosed = false

    /// Hands each request the window lets in to `admit`, in order; `paused` hears reading stop
    /// for the window (true) and go on (false).
    init(window: RequestWindow, admit: @escaping (SessionRequest) -> Void, paused: @escaping (Bool) -> Void) {
        self.window = window
        self.admit = admit
        self.paused = paused
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        waiting.append(unwrapInboundIn(data))
        // Behind others, it waits its turn: the first of them is waiting for a place.
        if waiting.count == 1 { letIn(context: context) }
    }

    func read(context: ChannelHandlerContext) {
        if holdsReads { readAsked = true } else { context.read() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        // A closed window lets everything in.
        window.close()
        while let request = waiting.popFirst() { admit(request) }
        hold(false)
        context.fireChannelInactive()
    }

    /// Lets the waiting requests in, in order, while the window has places; at the first it has
    /// none for, reading stops until the window gives that one a place.
    private func letIn(context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        while let next = waiting.first {
            let entered = window.enter(whenAdmitted: { loop.execute { this.value.placeTaken(context: bound.value) } })
            guard entered else { return hold(true) }
            waiting.removeFirst()
            admit(next)
        }
        hold(false)
        guard readAsked else { return }
        readAsked = false
        context.read()
    }

    /// The window took a place for the first request waiting: it goes on, and the others after it.
    private func placeTaken(context: ChannelHandlerContext) {
        guard !isClosed, let first = waiting.popFirst() else { return }
        admit(first)
        letIn(context: context)
    }

    private func hold(_ holds: Bool) {
        guard holds != holdsReads else { return }
        holdsReads = holds
        paused(holds)
    }
}
