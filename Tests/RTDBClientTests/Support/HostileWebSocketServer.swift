import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A loopback server that accepts every WebSocket upgrade, sends the bytes it was given as they
/// are (frames well formed or not), and closes its side a tenth of a second later (or at once,
/// `abrupt`: the FIN right behind the 101 and the frames): a server a client must not trust.
final class HostileWebSocketServer: Sendable {
    let port: Int
    private let channel: any Channel

    init(sending bytes: [UInt8], abrupt: Bool = false) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededVoidFuture() })
                return channel.pipeline.configureHTTPServerPipeline(
                    withServerUpgrade: (
                        upgraders: [upgrader],
                        completionHandler: { context in
                            // The 101 is out: first in the pipeline, its bytes reach the socket
                            // past the frame encoder.
                            try? context.pipeline.syncOperations.addHandler(
                                RawSender(bytes: bytes, abrupt: abrupt), position: .first)
                        }
                    ))
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await channel.close()
    }

    private final class RawSender: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes: [UInt8]
        let abrupt: Bool

        init(bytes: [UInt8], abrupt: Bool) {
            self.bytes = bytes
            self.abrupt = abrupt
        }

        func handlerAdded(context: ChannelHandlerContext) {
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
            if abrupt { return context.close(mode: .output, promise: nil) }
            // Otherwise its end comes later, for a client the bytes left waiting (a frame cut
            // short).
            let context = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.value.eventLoop.scheduleTask(in: .milliseconds(100)) {
                context.value.close(mode: .output, promise: nil)
            }
        }
    }
}
