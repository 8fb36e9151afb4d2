import NIOCore

/// Answers a server's `hb` pings on the connection's event loop, as the bytes arrive, and passes
/// every byte on unchanged.
///
/// A test's own tasks can be held for seconds on a loaded two-core machine while the whole suite
/// runs; an answer from the event loop does not wait for them. It looks for the ping's four bytes
/// as the server sends them (unmasked, `hb`); a ping split between two reads is not answered here.
final class PingAnswerer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private static let ping: [UInt8] = [0x89, 0x02, 0x68, 0x62]
    private static let pong = RawTCPClient.webSocketFrame(opcode: 0xA, payload: Array("hb".utf8))

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for _ in unwrapInboundIn(data).readableBytesView.ranges(of: Self.ping) {
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: Self.pong)), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
