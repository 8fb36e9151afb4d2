import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import RTDBCore

/// The first handler of every connection: a request whose method the HTTP parser does not know
/// (`BREW /a.json`) gets `405 Method Not Allowed` with `Allow`, and the connection closes.
///
/// Without it the parser's error reached no one during the WebSocket-upgrade negotiation, and
/// the client waited forever. Methods the parser knows but the API lacks (`PROPFIND`) reach the
/// REST responder, which answers 405 the same way. The guard reads only the first request line:
/// once a known method has been seen it hands the bytes on and leaves the pipeline.
final class MethodGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The methods NIO's HTTP/1 parser accepts (llhttp's list); anything else is refused here.
    static let parsedMethods: Set<String> = [
        "DELETE", "GET", "HEAD", "POST", "PUT", "CONNECT", "OPTIONS", "TRACE", "COPY", "LOCK", "MKCOL", "MOVE",
        "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY",
        "CHECKOUT", "MERGE", "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PATCH", "PURGE", "MKCALENDAR",
        "LINK", "UNLINK", "SOURCE", "QUERY",
    ]
    /// Longer than any of those: a first line with no space by then is not a request line.
    static let longestMethod = 16

    private var buffered: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var earlier = buffered {
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        let view = bytes.readableBytesView
        guard let space = view.firstIndex(of: UInt8(ascii: " ")) else {
            if view.count > Self.longestMethod {
                refuse(String(decoding: view.prefix(Self.longestMethod), as: UTF8.self) + "…", context: context)
            } else {
                buffered = bytes
            }
            return
        }
        let method = String(decoding: view[view.startIndex..<space], as: UTF8.self)
        guard Self.parsedMethods.contains(method) else {
            refuse(method, context: context)
            return
        }
        buffered = nil
        context.fireChannelRead(wrapInboundOut(bytes))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ method: String, context: ChannelHandlerContext) {
        buffered = nil
        RESTError.methodNotAllowed(method).answerAndClose(from: context)
    }
}

/// First in every connection's pipeline while it speaks HTTP: all that is sent passes it as bytes
/// (the encoders are behind it), so an answer written from here reaches the client as it is.
final class FrontDoor: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Whether anything has been sent on the connection.
    private(set) var hasSent = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        hasSent = true
        context.write(data, promise: promise)
    }

    /// Takes the door and the ``ParseErrorAnswerer`` out of a connection upgraded to a WebSocket.
    ///
    /// Nothing is left for them to answer there. Runs on the channel's loop.
    static func removeGuards(from pipeline: ChannelPipeline) {
        let operations = pipeline.syncOperations
        if let answerer = try? operations.context(handlerType: ParseErrorAnswerer.self) {
            operations.removeHandler(context: answerer, promise: nil)
        }
        if let door = try? operations.context(handlerType: FrontDoor.self) {
            operations.removeHandler(context: door, promise: nil)
        }
    }
}

/// Answers a first request the HTTP parser refuses with `400 Bad Request`, and closes.
///
/// A bad header line, an unknown version or a `Content-Length` that is no number: during the
/// WebSocket upgrade's negotiation nobody else answers it, and the client waited forever. Later
/// requests' parse errors are left to the HTTP handler, which answers them itself.
final class ParseErrorAnswerer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let door: FrontDoor

    init(door: FrontDoor) {
        self.door = door
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !door.hasSent,
            let front = try? context.pipeline.syncOperations.context(handler: door)
        else {
            context.fireErrorCaught(error)
            return
        }
        RESTError(.badRequest, "the request could not be read as HTTP/1.1 (\(error))").answerAndClose(from: front)
    }
}

extension RESTError {
    /// Writes the error as a whole HTTP/1.1 response from `context` (a handler in front of the
    /// HTTP encoder, so the bytes go out as they are), then closes the connection.
    func answerAndClose(from context: ChannelHandlerContext) {
        let body = JSONValue.object(["error": .string(message)]).jsonString
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
        head += "Connection: close\r\n\r\n"
        let bytes = context.channel.allocator.buffer(string: head + body)
        let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(bytes)).whenComplete { _ in closing.value.close(promise: nil) }
    }
}

/// A child channel that puts a ``MethodGuard`` in front of another's pipeline.
struct MethodGuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    /// The channel that handles the connection once its first request line is known.
    let inner: Inner
    /// Where the connection's bytes are counted.
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let door = FrontDoor()
        do {
            // Reads start small and grow with the traffic (NIO's default starts every connection
            // at 2 KB, which an idle WebSocket session then holds).
            try channel.syncOptions?.setOption(
                ChannelOptions.recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 65_536))
            let counter = ByteCounter(
                received: metrics.traffic.connectionReceived, sent: metrics.traffic.connectionSent)
            try channel.pipeline.syncOperations.addHandlers([counter, door, MethodGuard()])
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let configured = inner.setup(channel: channel, logger: logger)
        // Behind the HTTP decoder the inner setup added: where its parse errors arrive.
        do {
            try channel.pipeline.syncOperations.addHandler(ParseErrorAnswerer(door: door))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return configured
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
