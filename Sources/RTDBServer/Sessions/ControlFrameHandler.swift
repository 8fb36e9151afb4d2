import NIOCore
import NIOWebSocket
import RTDBWire

/// What a session's peer said, once the WebSocket's own frames are taken care of.
enum PeerMessage: Equatable {
    /// A text message (protocol v5 is text), unmasked.
    case text(String)
    /// A binary message, which protocol v5 has no use for.
    case binary
}

/// The WebSocket protocol's own part of a session (RFC 6455 §5.5): it answers pings, takes the
/// peer's close, refuses what the protocol forbids, and passes the peer's messages on, unmasked,
/// as ``PeerMessage``s.
///
/// A ping is answered as it is read, even while the session holds its requests back: the
/// peer's own heartbeat should not wait for the server's request window.
final class ControlFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = PeerMessage
    typealias OutboundOut = WebSocketFrame

    private let protocolError: (WebSocketErrorCode) -> Void
    private let peerClosed: () -> Void

    /// Calls `protocolError` with the close code for a frame or message the protocol forbids
    /// (the connection is to close with it), and `peerClosed` when the peer sends its close.
    init(protocolError: @escaping (WebSocketErrorCode) -> Void, peerClosed: @escaping () -> Void) {
        self.protocolError = protocolError
        self.peerClosed = peerClosed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // Extensions were not negotiated, so no reserved bit may be set (§5.2).
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return protocolError(.protocolError) }
        switch frame.opcode {
        case .text:
            // Text that is not UTF-8 fails the connection (§8.1), rather than reach the session
            // repaired into something the peer never said.
            guard let text = Self.text(of: frame) else { return protocolError(.dataInconsistentWithMessage) }
            context.fireChannelRead(wrapInboundOut(.text(text)))
        case .binary:
            context.fireChannelRead(wrapInboundOut(.binary))
        case .ping where frame.fin:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong where frame.fin:
            break
        case .connectionClose:
            peerClosed()
        default:
            // A fragmented control frame, or an opcode the protocol reserves.
            protocolError(.protocolError)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            protocolError(.messageTooLarge)
        case is NIOWebSocketFrameAggregator.Error:
            protocolError(.protocolError)
        case is NIOWebSocketError:
            // Answered by the codec's own WebSocketProtocolErrorHandler, which closes.
            break
        default:
            context.close(promise: nil)
        }
    }

    /// A text frame's message, unmasked as it is copied into the string (a client's frames are
    /// masked): one copy, where the frame's unmasked data copied the payload and the string
    /// copied it again; nil when it is not UTF-8.
    private static func text(of frame: WebSocketFrame) -> String? {
        frame.data.withUnsafeReadableBytes { bytes in
            guard let maskKey = frame.maskKey else { return WebSocketMask.text(bytes) }
            return WebSocketMask.text(bytes, key: maskKey.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
    }
}
