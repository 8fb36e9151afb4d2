import NIOCore

/// Hands what one socket of a proxied connection reads, and its end, to the connection's pipe.
final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let pipe: LinkPipe
    private let side: LinkPipe.Side

    init(pipe: LinkPipe, side: LinkPipe.Side) {
        self.pipe = pipe
        self.side = side
    }

    func channelActive(context: ChannelHandlerContext) {
        pipe.opened(side, channel: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pipe.received(unwrapInboundIn(data), from: side)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pipe.becameWritable(side) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pipe.ended(side)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset socket ends like a closed one; the pipe hears of it through channelInactive.
        context.close(promise: nil)
    }
}
