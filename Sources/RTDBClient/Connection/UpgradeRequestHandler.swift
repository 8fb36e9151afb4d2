import NIOCore
import NIOHTTP1

/// Asks for the WebSocket upgrade once connected, and reports a server that answers with
/// anything but `101 Switching Protocols` (swift-nio's upgrade handler passes such an answer on).
final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let target: WebSocketTarget
    private let refused: @Sendable (String) -> Void

    init(target: WebSocketTarget, refused: @escaping @Sendable (String) -> Void) {
        self.target = target
        self.refused = refused
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.requestTarget, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let response) = unwrapInboundIn(data) else { return }
        refused(
            "the server did not accept the WebSocket (HTTP \(response.status.code) \(response.status.reasonPhrase); is it a Realtime Database server?)"
        )
        context.close(promise: nil)
    }

    /// Closed before the upgrade (the handler leaves the pipeline once it is done).
    func channelInactive(context: ChannelHandlerContext) {
        refused("the connection closed before the server answered")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        refused(TransportFailure.describe(error))
        context.close(promise: nil)
    }
}
