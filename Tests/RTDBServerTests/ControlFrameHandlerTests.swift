import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import RTDBServer

/// The WebSocket protocol's own frames, in an `EmbeddedChannel` with nothing else: no socket, no
/// session, no namespace.
@Suite struct ControlFrameHandlerTests {
    /// What the handler told its session.
    private final class Told {
        var errors: [WebSocketErrorCode] = []
        var closes = 0
    }

    private func channel() throws -> (EmbeddedChannel, Told) {
        let told = Told()
        let handler = ControlFrameHandler(
            protocolError: { told.errors.append($0) }, peerClosed: { told.closes += 1 })
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, told)
    }

    private func frame(
        _ opcode: WebSocketOpcode, _ text: String, fin: Bool = true, mask: WebSocketMaskingKey? = nil,
        rsv1: Bool = false
    ) -> WebSocketFrame {
        var data = ByteBuffer(string: text)
        if let mask { data.webSocketMask(mask) }
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, maskKey: mask, data: data)
    }

    @Test func aPingIsAnsweredWithItsPayloadAndGoesNoFurther() throws {
        let (channel, told) = try channel()
        try channel.writeInbound(frame(.ping, "hb", mask: [1, 2, 3, 4]))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong && pong.fin && String(buffer: pong.data) == "hb")
        #expect(try channel.readInbound(as: PeerMessage.self) == nil)
        #expect(told.errors.isEmpty && told.closes == 0)
    }

    @Test func messagesPassUnmaskedAndPongsAreDropped() throws {
        let (channel, _) = try channel()
        try channel.writeInbound(frame(.text, #"{"t":"d"}"#, mask: [9, 8, 7, 6]))
        try channel.writeInbound(frame(.pong, "hb"))
        try channel.writeInbound(frame(.binary, "\u{1}"))
        #expect(try channel.readInbound(as: PeerMessage.self) == .text(#"{"t":"d"}"#))
        #expect(try channel.readInbound(as: PeerMessage.self) == .binary)
        #expect(try channel.readInbound(as: PeerMessage.self) == nil)
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
    }

    @Test func thePeersCloseIsTakenAndForbiddenFramesAreProtocolErrors() throws {
        let (channel, told) = try channel()
        try channel.writeInbound(frame(.connectionClose, ""))
        #expect(told.closes == 1)
        try channel.writeInbound(frame(.text, "x", rsv1: true))
        try channel.writeInbound(frame(.ping, "hb", fin: false))
        try channel.writeInbound(frame(try #require(WebSocketOpcode(encodedWebSocketOpcode: 0x3)), "reserved"))
        #expect(told.errors == [.protocolError, .protocolError, .protocolError])
        #expect(try channel.readInbound(as: PeerMessage.self) == nil)
    }

    /// RFC 6455 §8.1: text that is not UTF-8 fails the connection with 1007, masked or not,
    /// rather than reach the session repaired (found by the `server-socket` fuzz target).
    @Test func textThatIsNotUTF8IsRefusedWith1007() throws {
        let (channel, told) = try channel()
        for mask: WebSocketMaskingKey? in [[1, 2, 3, 4], nil] {
            var data = ByteBuffer(bytes: [0x7B, 0xF0, 0x9F, 0x98, 0x7D])
            if let mask { data.webSocketMask(mask) }
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, maskKey: mask, data: data))
        }
        #expect(told.errors == [.dataInconsistentWithMessage, .dataInconsistentWithMessage])
        #expect(try channel.readInbound(as: PeerMessage.self) == nil)
        try channel.writeInbound(frame(.text, "présence ✓", mask: [9, 9, 9, 9]))
        #expect(try channel.readInbound(as: PeerMessage.self) == .text("présence ✓"))
    }

    @Test func anOversizedMessageClosesWithTooBig() throws {
        let (channel, told) = try channel()
        channel.pipeline.fireErrorCaught(NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge)
        channel.pipeline.fireErrorCaught(NIOWebSocketFrameAggregator.Error.nonFinalFragmentSizeIsTooSmall)
        #expect(told.errors == [.messageTooLarge, .protocolError])
        #expect(channel.isActive, "the session closes it, with the code")
        struct Broken: Error {}
        channel.pipeline.fireErrorCaught(Broken())
        #expect(!channel.isActive, "anything else closes the connection at once")
    }
}
