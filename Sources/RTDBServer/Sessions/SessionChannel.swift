import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// A connection that is either HTTP/1.1 for the REST and SSE API, or upgraded at its first request
/// to a WebSocket that carries one protocol v5 session.
///
/// An upgraded connection's session lives in its channel's pipeline (a ``SessionHandler`` on
/// swift-nio's frame codec) and holds no task: ``handle(value:logger:)`` returns at once for it.
/// An HTTP connection is served by Hummingbird, in the connection's task as before.
struct SessionChannel: ServerChildChannel, HTTPChannelHandler {
    /// What the first request of a connection came to.
    enum Negotiated: Sendable {
        /// A WebSocket whose session runs in its pipeline.
        case session
        /// An HTTP connection for the REST API.
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade asked for and refused (not `/.ws`, or a bad handshake): answered with 400.
        case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    /// The negotiation's outcome, once the first request has been read.
    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    /// Answers the REST API's requests.
    let responder: HTTPChannelHandler.Responder
    private let maxFrameBytes: Int
    /// Makes the handler of a session, given the upgraded channel and the upgrade's request.
    private let makeSession: @Sendable (any Channel, HTTPRequestHead) -> SessionHandler

    /// Serves REST with `responder`, and upgrades `/.ws` requests to sessions made by `makeSession`
    /// with frames of at most `maxFrameBytes`.
    init(
        responder: @escaping HTTPChannelHandler.Responder, maxFrameBytes: Int,
        makeSession: @escaping @Sendable (any Channel, HTTPRequestHead) -> SessionHandler
    ) {
        self.responder = Self.redirectingLateUpgrades(responder)
        self.maxFrameBytes = maxFrameBytes
        self.makeSession = makeSession
    }

    /// What follows the frame decoder the upgrader installs, in order: the answer to a frame the
    /// decoder refuses (RFC 6455's close), and what makes a session's fragments whole messages (a
    /// message is at most a frame's limit, in at most 4,096 fragments of any size).
    ///
    /// The one list of them: the server installs it after an upgrade, and the `server-socket` fuzz
    /// target (``SessionFrameHandlers``) behind the same decoder.
    static func afterDecoder(maxFrameBytes: Int) -> [any ChannelHandler] {
        [
            WebSocketProtocolErrorHandler(),
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4_096, maxAccumulatedFrameSize: maxFrameBytes),
        ]
    }

    /// The frame decoder the upgrader installs for frames of at most `maxFrameBytes`.
    static func decoder(maxFrameBytes: Int) -> ByteToMessageHandler<WebSocketFrameDecoder> {
        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameBytes))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let (makeSession, maxFrameBytes) = (makeSession, maxFrameBytes)
            // The upgrader installs the decoder (``decoder(maxFrameBytes:)``'s); what follows it
            // is ours (``afterDecoder(maxFrameBytes:)``).
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: maxFrameBytes, enableAutomaticErrorHandling: false,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    let isSession = head.uri.hasPrefix("/.ws")
                    return channel.eventLoop.makeSucceededFuture(isSession ? HTTPHeaders() : nil)
                },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        // The decoder's refusals answered, whole messages from fragments, then
                        // the session.
                        try channel.pipeline.syncOperations.addHandlers(
                            SessionChannel.afterDecoder(maxFrameBytes: maxFrameBytes))
                        try channel.pipeline.syncOperations.addHandler(makeSession(channel, head))
                        return .session
                    }
                })
            let upgrades = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? .refusedUpgrade(http) : .http(http)
                    }
                })
            var pipeline = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(upgradeConfiguration: upgrades)
            // Pipelining is Hummingbird's (NIOAsyncChannel), and so are errors and header checks.
            pipeline.enablePipelining = false
            pipeline.enableErrorHandling = false
            pipeline.enableResponseHeaderValidation = false
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: pipeline)
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .session:
                // Served by its pipeline from now on: nothing waits here.
                return
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refusedUpgrade(let http):
                try await http.executeThenClose { _, outbound in
                    let head = HTTPResponse(
                        status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                    try await outbound.write(contentsOf: [.head(head), .end(nil)])
                }
            }
        } catch {
            logger.debug("connection ended before its first request was served: \(error)")
        }
    }

    /// A WebSocket upgrade asked for on a connection that already carried a request: NIO upgrades
    /// only a connection's first, so the client is sent to the same address again, on a new
    /// connection (`307`, then the close).
    private static func redirectingLateUpgrades(
        _ responder: @escaping HTTPChannelHandler.Responder
    ) -> HTTPChannelHandler.Responder {
        struct Redirected: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, writer, channel)
                return
            }
            let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            try await writer.writeResponse(
                HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: target]))
            throw Redirected()
        }
    }
}
