import NIOCore
import NIOWebSocket

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client's WebSocket session in its channel's pipeline, after the upgrade: text messages out
/// (masked, as a client's must be) and in, the server's pings answered, the close handshake.
///
/// Every event is reported on the channel's event loop, in order, ending with `.closed`.
final class ClientFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    /// Frames encoded here (``ClientFrameEncoding``): no frame encoder sits below.
    typealias OutboundOut = ByteBuffer

    private let onEvent: @Sendable (TransportEvent) -> Void
    private var context: ChannelHandlerContext?
    private var masks = MaskKeys()
    private var sentClose = false
    /// Why the connection ended, when known (a protocol error, the server's close).
    private var reason: String?
    /// The server broke the protocol: the connection is being failed.
    private var failed = false
    /// `.closed` was reported.
    private var ended = false

    /// Adds the frames' reader to a pipeline whose frame codec is in place: whole messages (the
    /// fragments joined, up to ``WebSocketTarget/maxMessageSize``), then this handler.
    static func add(to pipeline: ChannelPipeline, onEvent: @escaping @Sendable (TransportEvent) -> Void) throws
        -> ClientFrameHandler
    {
        let handler = ClientFrameHandler(onEvent: onEvent)
        try pipeline.syncOperations.addHandlers([
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: .max,
                maxAccumulatedFrameSize: WebSocketTarget.maxMessageSize),
            handler,
        ])
        return handler
    }

    init(onEvent: @escaping @Sendable (TransportEvent) -> Void) {
        self.onEvent = onEvent
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes text frames and flushes once.
    func write(_ frames: [String]) {
        guard let context, !sentClose else { return }
        let allocator = context.channel.allocator
        for text in frames {
            let frame = ClientFrameEncoding.frame(.text, text: text, key: masks.next(), allocator: allocator)
            context.write(wrapOutboundOut(frame), promise: nil)
        }
        context.flush()
    }

    /// Sends a normal close; the server's answer (or the grace period) closes the socket.
    func close() {
        guard let context, !sentClose else { return }
        sendClose(context)
    }

    /// Writes a close frame (once) and flushes it.
    @discardableResult
    private func sendClose(_ context: ChannelHandlerContext, code: WebSocketErrorCode = .normalClosure)
        -> EventLoopFuture<Void>
    {
        sentClose = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = ClientFrameEncoding.frame(
            .connectionClose, payload: data, key: masks.next(), allocator: context.channel.allocator)
        return context.writeAndFlush(wrapOutboundOut(frame))
    }

    /// Ends the connection for a server that broke the protocol: the reason is kept for the
    /// `.closed` event, the server is told with a close frame if it can be, then the socket closes.
    private func fail(_ context: ChannelHandlerContext, _ why: String, code: WebSocketErrorCode) {
        reason = reason ?? why
        failed = true
        guard !sentClose else { return context.close(promise: nil) }
        let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
        sendClose(context, code: code).whenComplete { _ in closing.value.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A failed connection reads nothing more (RFC 6455 §7.1.7), nor does an ended one: the
        // frames decoded from the same read would otherwise follow the end.
        guard !failed, !ended else { return }
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            onEvent(.frame(String(buffer: frame.unmaskedData)))
        case .ping:
            let pong = ClientFrameEncoding.frame(
                .pong, payload: frame.unmaskedData, key: masks.next(), allocator: context.channel.allocator)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var payload = frame.unmaskedData
            if let code = payload.readWebSocketErrorCode(), code != .normalClosure, code != .goingAway {
                let text = payload.readString(length: payload.readableBytes) ?? ""
                reason = "the server closed the WebSocket (\(code)\(text.isEmpty ? "" : ": \(text)"))"
            }
            if sentClose {
                context.close(promise: nil)
            } else {
                // Answered with a close, then the connection ends (RFC 6455 §5.5.1).
                let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
                sendClose(context).whenComplete { _ in closing.value.close(promise: nil) }
            }
        case .binary, .pong:
            // Nothing for this protocol.
            break
        default:
            fail(context, "the server sent a frame of reserved opcode \(frame.opcode)", code: .protocolError)
        }
    }

    /// Errors of swift-nio's decoder and aggregator (this client does their error handling: the
    /// reason must be kept before the close that ends the connection).
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOWebSocketError {
            fail(
                context, TransportFailure.describe(error),
                code: error == .invalidFrameLength ? .messageTooLarge : .protocolError)
        } else {
            reason = reason ?? TransportFailure.describe(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !ended {
            ended = true
            onEvent(.closed(reason: reason))
        }
        context.fireChannelInactive()
    }
}

/// Masking keys for a client's frames, from the system's random source (RFC 6455 §5.3 asks for
/// a fresh, unpredictable key per frame): drawn 64 at a time, one `getrandom` for them all,
/// where a draw a key was a system call for every other frame.
private struct MaskKeys {
    private var pool: [UInt32] = []

    mutating func next() -> UInt32 {
        if pool.isEmpty { refill() }
        return pool.removeLast()
    }

    private mutating func refill() {
        pool = [UInt32](repeating: 0, count: 64)
        pool.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            arc4random_buf(base, bytes.count)
        }
    }
}
