import NIOCore
import Prometheus

/// Counts the bytes a client connection carries, both ways, for `/metrics`
/// (`presencetop_connection_received_bytes_total`, `…_sent_bytes_total`): REST requests and
/// answers, event streams and WebSocket sessions alike, as the HTTP layer reads and writes them.
final class ByteCounter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let received: Counter
    private let sent: Counter

    init(received: Counter, sent: Counter) {
        self.received = received
        self.sent = sent
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received.increment(by: Int64(unwrapInboundIn(data).readableBytes))
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        sent.increment(by: Int64(unwrapOutboundIn(data).readableBytes))
        context.write(data, promise: promise)
    }
}
