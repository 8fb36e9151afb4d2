import DequeModule
import NIOCore
import NIOWebSocket
import RTDBCore
import RTDBWire

/// A WebSocket connection's protocol v5 session, in its channel's pipeline on swift-nio's frame
/// codec: no task waits on it while it is idle.
///
/// Behind a ``ControlFrameHandler`` (pings, the close, what the protocol forbids) and a
/// ``MessageRateHandler`` (the peer's message rate), it opens the session: reading stops, and
/// TCP slows the peer, while it opens, and messages already read wait here in order. Once the
/// session is live it adds a ``MessageAssemblyHandler`` (messages into requests) and a
/// ``RequestWindowHandler`` (requests to the namespace in order, ``RequestPump``) after itself,
/// and passes the messages on. Opening and ending are the ``WebSocketSession``'s (the opening in a short task, the
/// ending on its namespace's closing batch).
final class SessionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = PeerMessage
    typealias InboundOut = PeerMessage
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Phase {
        case opening
        case live(WebSocketSession.Live)
        /// No session: the client was told why, and the close is under way.
        case refused
        case ended
    }

    private let session: WebSocketSession
    private let writer: FrameWriter
    private let heartbeat = Heartbeat()
    private var phase = Phase.opening
    /// Whether reading is stopped while the session opens.
    private var isOpening = true
    private var readAsked = false
    private var deferred = Deque<PeerMessage>()
    private var context: ChannelHandlerContext?

    /// Serves `session`; a peer over its message rate waits on the server's timers.
    init(session: WebSocketSession) {
        self.session = session
        let sent = session.services.metrics.traffic.webSocketSent
        self.writer = FrameWriter(channel: session.channel) { sent.increment(by: Int64($0)) }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let (heartbeat, connections, sessionID, clock) = (
            heartbeat, session.connections, session.sessionID, session.clock
        )
        // First in the pipeline: any bytes at all count as hearing from the peer.
        let received = session.services.metrics.traffic.webSocketReceived
        let heard = HeardHandler { bytes in
            received.increment(by: Int64(bytes))
            heartbeat.heard()
            connections.update(sessionID) { $0.lastHeardAt = clock() }
        }
        try? context.pipeline.syncOperations.addHandler(heard, position: .first)
        let (session, writer) = (session, writer)
        let control = ControlFrameHandler(
            protocolError: { code in
                session.noteProtocolError()
                writer.close(code: code)
            },
            peerClosed: { writer.peerClosed() })
        try? context.pipeline.syncOperations.addHandler(control, position: .before(self))
        try? context.pipeline.syncOperations.addHandler(rateHandler(loop: context.eventLoop), position: .before(self))
        // The HTTP phase's guards have nothing left to answer on a WebSocket: every frame in and
        // out would still pass them.
        FrontDoor.removeGuards(from: context.pipeline)
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        Task {
            let live = await session.open(writer: writer, heartbeat: heartbeat)
            loop.execute { this.value.opened(live) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    private func opened(_ live: WebSocketSession.Live?) {
        switch phase {
        case .opening:
            phase = live.map { .live($0) } ?? .refused
            if let live, let context {
                let heartbeat = live.heartbeat
                let window = RequestWindowHandler(
                    window: live.window, admit: { live.requests.append($0) },
                    paused: { $0 ? heartbeat.holdReads() : heartbeat.resumeReads() })
                try? context.pipeline.syncOperations.addHandler(window, position: .after(self))
                try? context.pipeline.syncOperations.addHandler(assembly(for: live), position: .after(self))
            }
            takeWhatWaited()
        case .ended:
            // The connection closed while the session opened: what the peer sent meanwhile is
            // handled, then the session ends.
            if let live { finish(live) }
        case .live, .refused:
            break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        if !isOpening && deferred.isEmpty {
            take(message)
        } else {
            deferred.append(message)
        }
    }

    func read(context: ChannelHandlerContext) {
        if !isOpening {
            context.read()
        } else {
            readAsked = true
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let previous = phase
        phase = .ended
        if case .refused = previous { deferred.removeAll() }
        // The window's handler hands on what waited in it first.
        context.fireChannelInactive()
        // Still opening: the frames wait for the session, which finishes once it is open.
        if case .live(let live) = previous { finish(live) }
    }

    /// Ends a session whose connection closed.
    ///
    /// What was read before the close is still the client's: every request goes to the namespace
    /// (what waited in the window has gone on as it closed; what waited for the opening goes now,
    /// past the window), then the session ends.
    private func finish(_ live: WebSocketSession.Live) {
        live.window.close()
        isOpening = false
        if !deferred.isEmpty {
            let assembly = assembly(for: live)
            for case .text(let text) in deferred {
                if let request = assembly.assemble(text) { live.requests.append(request) }
            }
        }
        deferred.removeAll()
        end(live)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer shut its side: nothing more will come, so the connection ends.
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func end(_ live: WebSocketSession.Live) {
        session.close(live)
    }
}

extension SessionHandler {
    /// Passes one message on to the session's assembly; refused, what the peer sends is not
    /// taken.
    private func take(_ message: PeerMessage) {
        guard case .live = phase, let context else { return }
        context.fireChannelRead(wrapInboundOut(message))
    }

    /// What takes the live session's messages apart into requests.
    private func assembly(for live: WebSocketSession.Live) -> MessageAssemblyHandler {
        let metrics = session.services.metrics
        let messages = InboundMessages(configuration: session.configuration, clock: session.clock) {
            metrics.sessions.malformedMessages.increment()
            metrics.changes.signal()
        }
        let writer = writer
        return MessageAssemblyHandler(
            messages: messages, outlet: live.outlet,
            hooks: MessageAssemblyHandler.Hooks(
                tell: { [weak self] in self?.tell($0, live: live) }, end: { writer.close() },
                isClosing: { writer.isClosing }))
    }

    /// The session's message rate, its waits on the server's timers: the client is told the first
    /// time it goes over, and the heartbeat does not count the pause as its silence.
    private func rateHandler(loop: any EventLoop) -> MessageRateHandler {
        let (timers, heartbeat, perSecond) = (
            session.services.timers, heartbeat, session.configuration.limits.messagesPerSecond
        )
        let this = NIOLoopBound(self, eventLoop: loop)
        return MessageRateHandler(
            perSecond: perSecond, now: session.clock,
            schedule: { wait, resume in
                let resume = NIOLoopBound(resume, eventLoop: loop)
                Task {
                    try? await timers.sleep(for: wait)
                    loop.execute { resume.value() }
                }
            },
            hooks: MessageRateHandler.Hooks(
                firstThrottle: {
                    guard case .live(let live) = this.value.phase else { return }
                    this.value.tell(
                        "more than \(perSecond) messages a second; the server reads this connection more slowly",
                        live: live)
                },
                paused: { $0 ? heartbeat.holdReads() : heartbeat.resumeReads() }))
    }

    private func tell(_ problem: String, live: WebSocketSession.Live) {
        session.logger.info("session \(session.sessionID): \(problem)")
        live.outlet.send(.wire(WireMessage.control(.error(problem)).text))
    }

    /// The session is open (or refused): the messages that waited are taken, then reading goes on.
    private func takeWhatWaited() {
        isOpening = false
        while let message = deferred.popFirst() { take(message) }
        guard readAsked, let context else { return }
        readAsked = false
        context.read()
    }
}
