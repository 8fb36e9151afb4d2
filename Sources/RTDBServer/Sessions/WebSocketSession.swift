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
///
/// A class, so that each of its async calls carries one reference rather than a copy of all of
/// this: the connection's task keeps the most stack it ever used.
final class WebSocketSession: Sendable {
    let engine: DatabaseEngine
    /// The connection's channel, written directly (``FrameWriter``) and watched (``HeartbeatMonitor``).
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
    let heartbeats: HeartbeatMonitor
    let logger: Logger

    init(
        engine: DatabaseEngine, channel: any Channel, sessionID: String, host: String, peer: String,
        supersedes: String?, configuration: ServerConfiguration, connections: ConnectionTable,
        directory: SessionDirectory, clock: @escaping WallClock, timers: any Clock<Duration>,
        heartbeats: HeartbeatMonitor, logger: Logger
    ) {
        self.engine = engine
        self.channel = channel
        self.sessionID = sessionID
        self.host = host
        self.peer = peer
        self.supersedes = supersedes
        self.configuration = configuration
        self.connections = connections
        self.directory = directory
        self.clock = clock
        self.timers = timers
        self.heartbeats = heartbeats
        self.logger = logger
    }

    /// What a live session holds while its reader runs.
    private struct Live {
        let outlet: Outlet
        let writer: FrameWriter
        let heartbeat: Heartbeat
        let window: RequestWindow
        let requests: RequestPump
    }

    /// Serves the session in the connection's own task, which only reads.
    ///
    /// Messages go out on the channel as the engine sends them (``FrameWriter``), requests reach
    /// the engine from a task that exists only while there are some (``RequestPump``), the
    /// server's ``HeartbeatMonitor`` watches the peer and its ``SessionDirectory`` ends the session
    /// when the server stops. An idle session holds no task but this one.
    ///
    /// Opening, reading and closing are separate calls, so the task's stack at its deepest is the
    /// deepest of the three, not their sum: a task keeps the most stack it ever used.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        if let elsewhere = configuration.redirectHost {
            // The database is served elsewhere: the client is told to go there now, and this
            // connection ends without a session.
            try? await outbound.write(.text(WireMessage.control(.reset(host: elsewhere)).text))
            return
        }
        let live = await open()
        await readLoop(live, inbound: inbound)
        await close(live)
    }

    @inline(never)
    private func open() async -> Live {
        let writer = FrameWriter(channel: channel)
        let outlet = Outlet(sink: writer.send)
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
        let heartbeat = Heartbeat()
        channel.eventLoop.execute {
            let heard = HeardHandler {
                heartbeat.heard()
                connections.update(sessionID) { $0.lastHeardAt = clock() }
            }
            try? channel.pipeline.syncOperations.addHandler(heard, position: .first)
        }
        heartbeats.watch(heartbeat, channel: channel, sessionID: sessionID)
        let hello = Handshake(
            timestamp: now.millisecondsSince1970, host: configuration.advertisedHost ?? host, sessionID: sessionID)
        outlet.send(.wire(WireMessage.control(.hello(hello)).text))
        await engine.openSession(outlet: outlet, sessionID: sessionID, supersedes: supersedes)

        let window = RequestWindow(size: configuration.limits.outstandingRequests)
        let engine = engine
        let requests = RequestPump { batch in
            // Requests reach the engine in batches: one hop to its actor for all that arrived.
            await engine.handle(batch, outlet: outlet)
            window.leave(batch.count)
        }
        return Live(outlet: outlet, writer: writer, heartbeat: heartbeat, window: window, requests: requests)
    }

    @inline(never)
    private func close(_ live: Live) async {
        heartbeats.unwatch(live.heartbeat)
        live.window.close()
        await live.requests.finish()
        await engine.closeSession(outlet: live.outlet)
        live.outlet.finish()
        directory.remove(sessionID, outlet: live.outlet)
        connections.remove(sessionID)
        logger.debug("session \(sessionID) closed")
    }

    /// Reads frames into requests, within the connection's limits: past its message rate it waits
    /// (telling the client once), and it queues requests only while the request window has room.
    ///
    /// The loop's own state is kept small: its frame lives as long as the session, so each message
    /// is taken apart by ``InboundMessages/take(_:outlet:report:)``, a synchronous call whose
    /// temporaries are gone once it returns.
    @inline(never)
    private func readLoop(_ live: Live, inbound: WebSocketInboundStream) async {
        var assembler = InboundMessages(configuration: configuration, clock: clock)
        var budget = MessageBudget(perSecond: configuration.limits.messagesPerSecond)
        var toldAboutRate = false
        do {
            for try await message in inbound.messages(maxSize: configuration.maxFrameBytes) {
                // Closing: what the peer sent after it is not taken.
                if live.writer.isClosing { return }
                if let wait = budget.spend(now: clock()) {
                    live.heartbeat.holdReads()
                    try await throttle(for: wait, budget: budget, toldAboutRate: &toldAboutRate, outlet: live.outlet)
                    live.heartbeat.resumeReads()
                }
                guard await admit(message, assembler: &assembler, live: live) else { return }
            }
        } catch {
            logger.debug("session \(sessionID) read ended: \(error)")
        }
    }

    /// Waits out a client over its message rate, telling it once.
    @inline(never)
    private func throttle(
        for wait: Duration, budget: MessageBudget, toldAboutRate: inout Bool, outlet: Outlet
    ) async throws {
        if !toldAboutRate {
            toldAboutRate = true
            sendError(
                "more than \(budget.perSecond) messages a second; the server reads this connection more slowly",
                to: outlet)
        }
        try await timers.sleep(for: wait)
    }

    /// Takes one message in, queueing a request once the request window has room; `false` if the
    /// connection must end.
    @inline(never)
    private func admit(_ message: WebSocketMessage, assembler: inout InboundMessages, live: Live) async -> Bool {
        switch take(message, assembler: &assembler, outlet: live.outlet) {
        case .nothing:
            return true
        case .request(let request):
            // Waiting is the rare case: its frames are only pushed when the window is full.
            if !live.window.tryEnter() {
                // Held by the server's own window: the heartbeat does not take that for silence.
                live.heartbeat.holdReads()
                await live.window.enter()
                live.heartbeat.resumeReads()
            }
            live.requests.append(request)
            return true
        case .end:
            return false
        }
    }

    /// Takes one inbound message apart (``InboundMessages``); a binary one is no part of the
    /// protocol.
    @inline(never)
    private func take(_ message: WebSocketMessage, assembler: inout InboundMessages, outlet: Outlet)
        -> InboundMessages.Taken
    {
        guard case .text(let frame) = message else {
            sendError("binary frames are not part of protocol v5", to: outlet)
            return .nothing
        }
        return assembler.take(frame, outlet: outlet) { sendError($0, to: outlet) }
    }

    @inline(never)
    private func sendError(_ message: String, to outlet: Outlet) {
        logger.info("session \(sessionID): \(message)")
        outlet.send(.wire(WireMessage.control(.error(message)).text))
    }
}
