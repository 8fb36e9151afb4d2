import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Asks for the WebSocket upgrade once connected, reads the server's answer, and puts the frame
/// codec in place in the same turn as the answer arrives.
///
/// swift-nio's `NIOHTTPClientUpgradeHandler` finishes an upgrade only once its HTTP decoder has
/// left the pipeline (a later turn of the loop), holding the bytes that came with the `101`
/// meanwhile but letting the connection's end pass: a server that sent its first frames and its
/// FIN right behind the `101` had them lost (3 connections in 300 on loopback). The answer's head
/// is small and read here instead; whatever follows it goes straight to the frame decoder, ahead
/// of the end. swift-nio's upgrader still makes the request's key and checks the answer's.
final class WebSocketUpgradeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The longest answer head read (a `101` is a few hundred bytes).
    static let maxHeadBytes = 16 * 1024

    private let target: WebSocketTarget
    private let upgrader: NIOWebSocketClientUpgrader
    /// Adds the frames' own handlers once the codec is in place.
    private let upgraded: (any Channel) throws -> Void
    /// Ends the connection with a reason, before the upgrade.
    private let refused: @Sendable (String) -> Void
    private var received = ByteBuffer()
    private var finished = false

    /// The upgrade for `target`.
    ///
    /// `upgraded` adds the frames' handlers; `refused` is told why there is no upgrade.
    /// `requestKey` is random but for a fuzz target, whose answers must carry the matching accept.
    init(
        target: WebSocketTarget, requestKey: String = NIOWebSocketClientUpgrader.randomRequestKey(),
        upgraded: @escaping (any Channel) throws -> Void, refused: @escaping @Sendable (String) -> Void
    ) {
        self.target = target
        // Protocol errors are the frames handler's: it keeps their reason for `.closed`.
        upgrader = NIOWebSocketClientUpgrader(
            requestKey: requestKey, maxFrameSize: WebSocketTarget.maxFrameSize, automaticErrorHandling: false
        ) { channel, _ in channel.eventLoop.makeSucceededVoidFuture() }
        self.upgraded = upgraded
        self.refused = refused
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "Upgrade", value: "websocket")
        headers.add(name: "Connection", value: "Upgrade")
        upgrader.addCustom(upgradeRequestHeaders: &headers)
        var request = "GET \(target.requestTarget) HTTP/1.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard let end = received.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if received.readableBytes > Self.maxHeadBytes {
                refuse("the server's answer is not HTTP (no end of its head in \(Self.maxHeadBytes) bytes)", context)
            }
            return
        }
        let headLength = end.upperBound - received.readerIndex
        guard let text = received.readString(length: headLength) else { return }
        guard let (response, reason) = Self.parse(text) else {
            return refuse("the server's answer is not HTTP", context)
        }
        guard response.status == .switchingProtocols else {
            return refuse(
                "the server did not accept the WebSocket (HTTP \(response.status.code) \(reason); is it a Realtime Database server?)",
                context)
        }
        guard upgrader.shouldAllowUpgrade(upgradeResponse: response) else {
            return refuse("the server's WebSocket handshake is not valid (its Sec-WebSocket-Accept)", context)
        }
        finished = true
        do {
            try upgrade(context)
        } catch {
            refused(TransportFailure.describe(error))
            context.close(promise: nil)
        }
    }

    /// The frame decoder goes in behind this handler (frames out are encoded by
    /// ``ClientFrameHandler``, with no encoder below it); the bytes that came after the answer's head go to
    /// it at once, then this handler leaves (its context passes nothing on once it has left).
    private func upgrade(_ context: ChannelHandlerContext) throws {
        let pipeline = context.pipeline.syncOperations
        try pipeline.addHandler(
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: WebSocketTarget.maxFrameSize)),
            position: .after(self))
        try upgraded(context.channel)
        let rest = received.slice()
        received = ByteBuffer()
        if rest.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(rest))
            context.fireChannelReadComplete()
        }
        pipeline.removeHandler(context: context, promise: nil)
    }

    /// A response head (the status line and the headers), and its reason phrase as the server wrote it.
    private static func parse(_ text: String) -> (HTTPResponseHead, String)? {
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)[...]
        guard let statusLine = lines.popFirst() else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...599).contains(code)
        else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = trimmed(line[..<colon])
            // A field name is a token: visible ASCII (swift-nio traps on any other).
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            headers.add(name: name, value: trimmed(line[line.index(after: colon)...]))
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        let head = HTTPResponseHead(
            version: parts[0] == "HTTP/1.0" ? .http1_0 : .http1_1,
            status: HTTPResponseStatus(statusCode: code, reasonPhrase: reason), headers: headers)
        return (head, reason)
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(text[first...last])
    }

    private func refuse(_ reason: String, _ context: ChannelHandlerContext) {
        finished = true
        refused(reason)
        context.close(promise: nil)
    }

    /// Closed before the upgrade (the handler leaves the pipeline once it is done).
    func channelInactive(context: ChannelHandlerContext) {
        if !finished {
            finished = true
            refused("the connection closed before the server answered")
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !finished else { return }
        refuse(TransportFailure.describe(error), context)
    }
}
