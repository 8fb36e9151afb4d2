import Foundation
import Logging
import NIOCore
import NIOWebSocket
import RTDBCore
import RTDBWire
import Synchronization

/// One protocol v5 connection's dealings with its namespace: the opening (lease, limits, hello,
/// the session in the engine) and the ending (the requests handed over, onDisconnect, the lease
/// given back).
///
/// Reading is its ``SessionHandler``'s, in the channel's pipeline; the opening runs in a short
/// task of its own and the ending on the namespace's closing batch, so a live session holds no
/// task at all.
final class WebSocketSession: Sendable {
    /// What all sessions of the server share.
    let services: ServerServices
    let namespace: String
    /// The connection's channel, written directly (``FrameWriter``) and watched (``HeartbeatMonitor``).
    let channel: any Channel
    let sessionID: String
    let host: String
    let peer: String
    let supersedes: String?
    /// Whether the client broke the protocol (its session ends for it).
    private let brokeProtocol = Atomic<Bool>(false)

    var registry: NamespaceRegistry { services.registry }
    var configuration: ServerConfiguration { services.configuration }
    var connections: ConnectionTable { services.connections }
    var directory: SessionDirectory { services.directory }
    var clock: WallClock { services.clock }
    var heartbeats: HeartbeatMonitor { services.heartbeats }
    var logger: Logger { services.logger }

    init(
        services: ServerServices, namespace: String, channel: any Channel, sessionID: String, host: String,
        peer: String, supersedes: String?
    ) {
        self.services = services
        self.namespace = namespace
        self.channel = channel
        self.sessionID = sessionID
        self.host = host
        self.peer = peer
        self.supersedes = supersedes
    }

    /// What a live session holds.
    struct Live: Sendable {
        let engine: DatabaseEngine
        let outlet: Outlet
        let heartbeat: Heartbeat
        let window: RequestWindow
        let requests: RequestPump
    }

    /// Opens the session, writing through `writer` and watched by `heartbeat`; nil if there is none, and then the client has
    /// been told why and the connection is closing: the database is served elsewhere (a reset),
    /// the namespace cannot be opened, or it holds the most sessions allowed.
    func open(writer: FrameWriter, heartbeat: Heartbeat) async -> Live? {
        if let elsewhere = configuration.redirectHost {
            services.metrics.sessions.refused[.redirect]?.increment()
            writer.send(.wire(WireMessage.control(.reset(host: elsewhere)).text))
            writer.close()
            return nil
        }
        let engine: DatabaseEngine
        do {
            engine = try await registry.lease(namespace)
        } catch {
            let refusal: ServerMetrics.SessionRefusal =
                if case NamespaceError.shuttingDown = error { .stopping } else { .namespaceUnavailable }
            services.metrics.sessions.refused[refusal]?.increment()
            writer.send(.wire(WireMessage.control(.shutdown(reason: "\(error)")).text))
            writer.close()
            return nil
        }
        let limit = configuration.limits.sessionsPerNamespace
        if await engine.sessionCount >= limit {
            registry.release(namespace)
            services.metrics.sessions.refused[.sessionLimit]?.increment()
            let reason = "namespace \(namespace) holds \(limit) sessions, the server's limit; try again later"
            logger.notice("refused a session from \(peer): \(reason)")
            writer.send(.wire(WireMessage.control(.error(reason)).text))
            // 1013: try again later (RFC 6455 registry); the SDKs reconnect with back-off.
            writer.close(code: .unknown(1013))
            return nil
        }
        services.metrics.sessions.opened.increment()
        return await open(engine: engine, writer: writer, heartbeat: heartbeat)
    }

    private func open(engine: DatabaseEngine, writer: FrameWriter, heartbeat: Heartbeat) async -> Live {
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
        heartbeats.watch(heartbeat, channel: channel, sessionID: sessionID)
        let hello = Handshake(
            timestamp: now.millisecondsSince1970, host: configuration.advertisedHost ?? host, sessionID: sessionID)
        outlet.send(.wire(WireMessage.control(.hello(hello)).text))
        await engine.openSession(outlet: outlet, sessionID: sessionID, supersedes: supersedes)
        let window = RequestWindow(size: configuration.limits.outstandingRequests)
        let requests = RequestPump { batch in
            // Requests reach the engine in batches: one hop to its actor for all that arrived.
            await engine.handle(batch, outlet: outlet)
            window.leave(batch.count)
        }
        return Live(engine: engine, outlet: outlet, heartbeat: heartbeat, window: window, requests: requests)
    }

    /// Ends a session whose connection has closed: its queued requests are handled first, then
    /// its onDisconnect writes run and the namespace is given back.
    ///
    /// From the event loop, with no task of its own when the requests are all handled already
    /// (the common case, and the whole of a mass disconnect): the session joins its namespace's
    /// closing batch at once.
    func close(_ live: Live) {
        heartbeats.unwatch(live.heartbeat)
        live.window.close()
        live.requests.finish {
            live.engine.closeSessionWithOthers(outlet: live.outlet) { self.closed(live) }
        }
    }

    /// Notes that the client broke the protocol: its session ends for it (counted so).
    func noteProtocolError() { brokeProtocol.store(true, ordering: .relaxed) }

    /// Why the session ended, as ``ServerMetrics`` counts it.
    private func ending(_ live: Live) -> ServerMetrics.SessionEnd {
        if brokeProtocol.load(ordering: .relaxed) { return .error }
        if live.heartbeat.wasJudgedSilent { return .heartbeatTimeout }
        if registry.stopping.load(ordering: .relaxed) { return .serverStop }
        return .clientClose
    }

    /// What is left once the namespace has closed the session.
    private func closed(_ live: Live) {
        services.metrics.sessions.closed[ending(live)]?.increment()
        live.outlet.finish()
        directory.remove(sessionID, outlet: live.outlet)
        connections.remove(sessionID)
        registry.release(namespace)
        logger.debug("session \(sessionID) closed")
        services.metrics.changes.signal()
    }
}
