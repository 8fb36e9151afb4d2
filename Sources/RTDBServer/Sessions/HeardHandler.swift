import NIOCore

/// Notes when bytes last arrived on a connection, before any decoding.
///
/// The session answers pings and takes pongs without telling anyone, so its messages alone
/// would make a healthy but quiet client look silent between its own pings. Placed first in the
/// pipeline, this sees every byte the peer sends: what a heartbeat means by "heard from".
final class HeardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Told of every read, with its size in bytes.
    private let heard: @Sendable (Int) -> Void

    init(heard: @escaping @Sendable (Int) -> Void) {
        self.heard = heard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heard(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }
}
