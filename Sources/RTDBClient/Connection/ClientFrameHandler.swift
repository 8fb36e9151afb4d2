import NIOCore
import NIOWebSocket

/// A client's WebSocket session in its channel's pipeline, after the upgrade: text messages out
/// (masked, as a client's must be) and in, the server's pings answered, the close handshake.
///
/// Every event is reported on the channel's event loop, in order, ending with `.closed`.
final class ClientFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let onEvent: @Sendable (TransportEvent) -> Void
    private var context: ChannelHandlerContext?
    private var masks = MaskKeys()
    private var sentClose = false
    /// Why the connection ended, when known (a protocol error, the server's close).
    private var reason: String?

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
        for text in frames {
            let data = context.channel.allocator.buffer(string: text)
            context.write(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, maskKey: masks.next(), data: data)),
                promise: nil)
        }
        context.flush()
    }

    /// Sends a normal close; the server's answer (or the grace period) closes the socket.
    func close() {
        guard let context, !sentClose else { return }
        sentClose = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        context.writeAndFlush(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: masks.next(), data: data)),
            promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            onEvent(.frame(String(buffer: frame.unmaskedData)))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: masks.next(), data: frame.unmaskedData)
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
                // Answered with the same close, then the connection ends (RFC 6455 §5.5.1).
                sentClose = true
                var answer = context.channel.allocator.buffer(capacity: 2)
                answer.write(webSocketErrorCode: .normalClosure)
                let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: masks.next(), data: answer)
                context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in context.close(promise: nil) }
            }
        default:
            // Binary frames and pongs carry nothing for this protocol.
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        reason = reason ?? TransportFailure.describe(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onEvent(.closed(reason: reason))
        context.fireChannelInactive()
    }
}

/// Masking keys for a client's frames, from the system's random source: one draw gives two keys
/// (RFC 6455 §5.3 asks for a fresh, unpredictable key per frame).
private struct MaskKeys {
    private var spare: UInt32?
    private var generator = SystemRandomNumberGenerator()

    mutating func next() -> WebSocketMaskingKey {
        if let spare {
            self.spare = nil
            return Self.key(spare)
        }
        let drawn = generator.next()
        spare = UInt32(truncatingIfNeeded: drawn >> 32)
        return Self.key(UInt32(truncatingIfNeeded: drawn))
    }

    private static func key(_ value: UInt32) -> WebSocketMaskingKey {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        // Four bytes always make a key; the fallback is never taken.
        return WebSocketMaskingKey(bytes) ?? .random()
    }
}
