import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import RTDBCore
import RTDBWire
import ServiceLifecycle

/// One protocol v5 connection: the hello, then requests in order, with pushes and responses
/// written as the engine releases them.
struct WebSocketSession {
    let engine: DatabaseEngine
    /// The connection's channel, for writing a batch of frames with one flush.
    let channel: any Channel
    let sessionID: String
    let host: String
    let peer: String
    let supersedes: String?
    let configuration: ServerConfiguration
    let connections: ConnectionTable
    let directory: SessionDirectory
    let clock: WallClock
    let timers: any Clock<Duration>
    let logger: Logger

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let outlet = Outlet()
        let now = clock()
        if let supersedes, let previous = directory.outlet(for: supersedes) {
            // The client reconnected (ls=): end the old half-open session, running its onDisconnect.
            logger.debug("session \(sessionID) supersedes \(supersedes)")
            previous.send(.close)
        }
        directory.insert(outlet, for: sessionID)
        connections.insert(
            ConnectionInfo(
                sessionID: sessionID, namespace: engine.namespace, peerAddress: peer, authUID: nil, connectedAt: now,
                lastHeardAt: now, onDisconnectCount: 0, listenCount: 0))
        let (channel, connections, sessionID, clock) = (channel, connections, sessionID, clock)
        let heartbeat = Heartbeat(timeout: configuration.heartbeatTimeout, timers: timers)
        channel.eventLoop.execute {
            let heard = HeardHandler {
                heartbeat.heard()
                connections.update(sessionID) { $0.lastHeardAt = clock() }
            }
            try? channel.pipeline.syncOperations.addHandler(heard, position: .first)
        }
        let hello = Handshake(timestamp: now.millisecondsSince1970, host: host, sessionID: sessionID)
        outlet.send(.wire(WireMessage.control(.hello(hello)).text))
        await engine.openSession(outlet: outlet, sessionID: sessionID, supersedes: supersedes)

        let requests = BatchQueue<SessionRequest>()
        // A stopping server ends the session itself (a close frame, then its onDisconnect)
        // instead of waiting for the client to go.
        await withTaskCancellationOrGracefulShutdownHandler {
            await serve(outlet: outlet, inbound: inbound, outbound: outbound, requests: requests, heartbeat: heartbeat)
        } onCancelOrGracefulShutdown: {
            outlet.send(.close)
        }
        await engine.closeSession(outlet: outlet)
        outlet.finish()
        directory.remove(sessionID, outlet: outlet)
        connections.remove(sessionID)
        logger.debug("session \(sessionID) closed")
    }

    /// Runs the session's loops until the first of them ends (the peer went, the outlet closed,
    /// or the heartbeat heard nothing).
    private func serve(
        outlet: Outlet, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        requests: BatchQueue<SessionRequest>, heartbeat: Heartbeat
    ) async {
        let (channel, sessionID) = (channel, sessionID)
        let window = RequestWindow(size: configuration.limits.outstandingRequests)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await writeLoop(outlet: outlet, outbound: outbound) }
            group.addTask {
                await readLoop(outlet: outlet, inbound: inbound, requests: requests, window: window)
                requests.finish()
            }
            group.addTask { [logger, configuration] in
                let ping = WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "hb"))
                let silent = await heartbeat.runUntilSilent(
                    settle: { try? await channel.eventLoop.submit {}.get() },
                    ping: { channel.writeAndFlush(ping, promise: nil) })
                guard silent else { return }
                logger.info(
                    "session \(sessionID): nothing heard for \(configuration.heartbeatTimeout); closing it")
                channel.close(promise: nil)
            }
            group.addTask {
                // Requests reach the engine in batches: one hop to its actor for all that arrived.
                while let batch = await requests.nextBatch() {
                    await engine.handle(batch, outlet: outlet)
                    window.leave(batch.count)
                }
            }
            await group.next()
            window.close()
            requests.finish()
            outlet.finish()
            group.cancelAll()
        }
    }

    private func writeLoop(outlet: Outlet, outbound: WebSocketOutboundWriter) async {
        while let batch = await outlet.nextBatch() {
            var frames: [WebSocketFrame] = []
            var closing = false
            for item in batch {
                switch item {
                case .wire(let text):
                    for frame in WireFraming.frames(for: text) {
                        frames.append(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: frame)))
                    }
                case .close:
                    closing = true
                case .event:
                    continue
                }
                if closing { break }
            }
            if !frames.isEmpty {
                do {
                    try await write(frames)
                } catch {
                    return
                }
            }
            if closing {
                try? await outbound.close(.normalClosure, reason: "session ended")
                return
            }
        }
    }

    /// Writes frames with a single flush.
    ///
    /// The library's writer flushes every frame, which costs a system call per message; under load
    /// a batch holds many messages.
    private func write(_ frames: [WebSocketFrame]) async throws {
        let channel = channel
        try await channel.eventLoop.flatSubmit {
            guard let last = frames.last else { return channel.eventLoop.makeSucceededVoidFuture() }
            for frame in frames.dropLast() { channel.write(frame, promise: nil) }
            return channel.writeAndFlush(last)
        }.get()
    }

    /// Reads frames into requests, within the connection's limits: past its message rate it waits
    /// (telling the client once), and it queues requests only while the request window has room.
    private func readLoop(
        outlet: Outlet, inbound: WebSocketInboundStream, requests: BatchQueue<SessionRequest>, window: RequestWindow
    ) async {
        var assembler = FrameAssembler(maxMessageBytes: 2 * configuration.maxWebSocketWriteBytes)
        var budget = MessageBudget(perSecond: configuration.limits.messagesPerSecond)
        var toldAboutRate = false
        do {
            for try await message in inbound.messages(maxSize: configuration.maxFrameBytes) {
                if let wait = budget.spend(now: clock()) {
                    if !toldAboutRate {
                        toldAboutRate = true
                        sendError(
                            "more than \(budget.perSecond) messages a second; the server reads this connection more slowly",
                            to: outlet)
                    }
                    try await timers.sleep(for: wait)
                }
                guard case .text(let frame) = message else {
                    sendError("binary frames are not part of protocol v5", to: outlet)
                    continue
                }
                let text: String?
                do {
                    text = try assembler.receive(frame)
                } catch {
                    sendError("\(error); closing the connection", to: outlet)
                    return
                }
                if let text { await process(text, outlet: outlet, requests: requests, window: window) }
            }
        } catch {
            logger.debug("session \(sessionID) read ended: \(error)")
        }
    }

    private func process(
        _ text: String, outlet: Outlet, requests: BatchQueue<SessionRequest>, window: RequestWindow
    ) async {
        let message: WireMessage
        do {
            message = try WireMessage(text: text)
        } catch {
            sendError(error.message, to: outlet)
            return
        }
        switch message {
        case .control(.ping):
            // The pong carries the server time: clients that know it estimate clock skew from the
            // round trip; the SDKs only need the `d` to be there.
            outlet.send(.wire(ControlMessage.pongText(serverTime: clock().millisecondsSince1970)))
        case .control:
            break
        case .request(let number, let action, let body):
            if text.utf8.count > configuration.maxWebSocketWriteBytes {
                let error = WireError(
                    status: .tooBig,
                    message: "request is \(text.utf8.count) bytes; the limit is \(configuration.maxWebSocketWriteBytes)"
                )
                await window.enter()
                requests.append(SessionRequest(number: number, request: .failure(error)))
                return
            }
            await window.enter()
            do {
                let request = try ClientRequest(action: action, body: body)
                requests.append(SessionRequest(number: number, request: .success(request)))
            } catch {
                requests.append(SessionRequest(number: number, request: .failure(error)))
            }
        case .response, .push:
            sendError("clients send requests, not responses or pushes", to: outlet)
        }
    }

    private func sendError(_ message: String, to outlet: Outlet) {
        logger.info("session \(sessionID): \(message)")
        outlet.send(.wire(WireMessage.control(.error(message)).text))
    }
}
