import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A loopback server that accepts every WebSocket upgrade, sends the bytes it was given as they
/// are (frames well formed or not), and closes its side a tenth of a second later: a server a client
/// must not trust.
final class HostileWebSocketServer: Sendable {
    let port: Int
    private let channel: any Channel

    init(sending bytes: [UInt8]) async throws {
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
                                RawSender(bytes: bytes), position: .first)
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

        init(bytes: [UInt8]) { self.bytes = bytes }

        func handlerAdded(context: ChannelHandlerContext) {
            context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
            // Its own end comes later, for a client the bytes left waiting (a frame cut short): a
            // FIN at once could overtake the client's upgrade, which is not what is tested here.
            let context = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.value.eventLoop.scheduleTask(in: .milliseconds(100)) {
                context.value.close(mode: .output, promise: nil)
            }
        }
    }
}
