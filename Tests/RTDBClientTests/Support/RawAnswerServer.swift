import NIOCore
import NIOPosix

/// A loopback server that answers every connection with the bytes it was given, whatever the
/// client asked, then closes: an upgrade's answer a client must not trust.
final class RawAnswerServer: Sendable {
    let port: Int
    private let channel: any Channel

    init(answering bytes: [UInt8]) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Answer(bytes: bytes))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await channel.close()
    }

    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes: [UInt8]

        init(bytes: [UInt8]) { self.bytes = bytes }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
            context.close(mode: .output, promise: nil)
        }
    }
}
