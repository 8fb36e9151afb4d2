import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import RTDBCore
import RTDBWire
import ServiceLifecycle
import Synchronization

/// A Firebase Realtime Database compatible server: protocol v5 over WebSocket and the REST API
/// (with streaming) on one port, each namespace stored durably in SQLite.
public final class RTDBServer: Sendable {
    /// How the server runs.
    public let configuration: ServerConfiguration
    /// The live WebSocket connections, for the dashboard.
    public let connections: ConnectionTable
    /// The namespaces.
    public let registry: NamespaceRegistry
    /// What it counts, for `GET /metrics`.
    public let metrics = ServerMetrics()
    private let directory = SessionDirectory()
    private let heartbeats: HeartbeatMonitor

    /// How many heartbeat ticks the server has judged in full; a test that moves time by hand
    /// waits on it instead of guessing how long a loaded machine takes to wake the ticker.
    public var heartbeatTicksJudged: Int { heartbeats.ticksJudged }

    /// How many sessions the heartbeat has judged silent and closed: read with
    /// ``heartbeatTicksJudged``, it tells a test whether a tick's session end is coming.
    public var heartbeatSessionsJudgedSilent: Int { heartbeats.sessionsJudgedSilent }
    private let logger: Logger
    private let clock: WallClock
    private let timers: any Clock<Duration>
    /// What every WebSocket session shares.
    private let services: ServerServices
    /// The running service group, to stop it from ``shutDown()``.
    private let running = Mutex<ServiceGroup?>(nil)
    /// How long a stop waits for sessions and streams to end before it cuts them off.
    static let shutdownBound: Duration = .seconds(10)

    /// Makes a server; nothing is bound until ``run(onListening:)``.
    ///
    /// - Parameters:
    ///   - time: The server's wall clock (timestamps, token expiry) and what the heartbeat, the
    ///     stream keep-alive and the namespaces' timers sleep on; tests pass time they move by hand.
    public init(
        configuration: ServerConfiguration, logger: Logger = Logger(label: "presencetop.server"),
        time: TimeSource = .system
    ) {
        self.configuration = configuration
        self.logger = logger
        self.clock = time.wall
        self.timers = time.clock
        self.connections = ConnectionTable()
        self.heartbeats = HeartbeatMonitor(
            timeout: configuration.heartbeatTimeout, timers: timers, logger: logger, judged: metrics.changes)
        self.registry = NamespaceRegistry(
            configuration: configuration, connections: connections, time: time, logger: logger, metrics: metrics)
        self.services = ServerServices(
            registry: registry, configuration: configuration, connections: connections, directory: directory,
            clock: clock, timers: timers, heartbeats: heartbeats, logger: logger, metrics: metrics)
    }

    /// Serves until ``shutDown()``, SIGINT or SIGTERM (or the task is cancelled), then stops
    /// accepting, closes every session (a WebSocket close) and stream (its end), lets in-flight
    /// writes become durable, and closes every namespace.
    ///
    /// Sessions and streams end at once; one whose peer does not answer the close is cut off
    /// after a few seconds, and the whole stop is bounded by ``shutdownBound``.
    ///
    /// - Parameter onListening: Called once with the bound host and port.
    /// - Parameter onMetricsListening: Called once with the metrics listener's host and port,
    ///   when there is one (``ServerConfiguration/metricsAddress``).
    public func run(
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in },
        onMetricsListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) async throws {
        let maxFrameBytes = configuration.maxFrameBytes
        let metrics = metrics
        let webSocketBuilder = HTTPServerBuilder { responder in
            MethodGuardedChannel(
                inner: SessionChannel(responder: responder, maxFrameBytes: maxFrameBytes) { channel, head in
                    self.makeSession(channel: channel, head: head)
                }, metrics: metrics)
        }
        var builder = webSocketBuilder
        if let tls = configuration.tls {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificatePath).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: tls.keyPath, format: .pem)
            let tlsConfiguration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain, privateKey: .privateKey(key))
            builder = try .tls(webSocketBuilder, tlsConfiguration: tlsConfiguration)
        }
        let responder = RESTResponder(services: services)
        let host = configuration.host
        let app = Application(
            responder: responder,
            server: builder,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
            onServerRunning: { [registry] channel in
                // Sessions the server had when it last stopped get their onDisconnect writes run,
                // even in namespaces nobody opens again.
                Task { await registry.resumeOrphanedSessions() }
                await onListening(host, channel.localAddress?.port ?? 0)
            },
            logger: logger
        )
        var services: [any Service] = [app]
        if let (metricsHost, metricsPort) = configuration.metricsAddress {
            services.append(
                Application(
                    responder: MetricsResponder { [services = self.services] in await RESTResponder.scrape(services) },
                    configuration: .init(address: .hostname(metricsHost, port: metricsPort), serverName: nil),
                    onServerRunning: { channel in
                        await onMetricsListening(metricsHost, channel.localAddress?.port ?? 0)
                    },
                    logger: logger))
        }
        var serviceConfiguration = ServiceGroupConfiguration(
            // Stopped in reverse order: sessions are closed first, while the server still runs.
            services: services + [
                heartbeats, directory,
                StopWatcher { [registry] in
                    await registry.beginStopping()
                    await registry.stopWaitingForFailingDisks()
                },
            ],
            logger: logger)
        serviceConfiguration.gracefulShutdownSignals = configuration.stopsOnSignals ? [.sigterm, .sigint] : []
        serviceConfiguration.maximumGracefulShutdownDuration = Self.shutdownBound
        let group = ServiceGroup(configuration: serviceConfiguration)
        running.withLock { $0 = group }
        do {
            try await group.run()
        } catch {
            await registry.close()
            throw error
        }
        await registry.close()
    }

    /// Stops a running server as SIGTERM would, and returns once ``run(onListening:)`` has
    /// been asked to stop (await its task to know it has).
    public func shutDown() async {
        await running.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// The session of a connection upgraded at `head` (`/.ws?v=5&ns=…&ls=…`), as a handler for
    /// its pipeline.
    private func makeSession(channel: any Channel, head: HTTPRequestHead) -> SessionHandler {
        var parameters: [String: String] = [:]
        if let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? String(parts[1]) : ""
                parameters[String(parts[0])] = value
            }
        }
        let authority = head.headers.first(name: "host") ?? "\(configuration.host):\(configuration.port)"
        let namespace = parameters["ns"] ?? RESTRequest.namespace(fromHost: authority) ?? configuration.defaultNamespace
        let peer = channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "unknown"
        let session = WebSocketSession(
            services: services, namespace: namespace, channel: channel, sessionID: Self.makeSessionID(),
            host: authority, peer: peer, supersedes: parameters["ls"])
        return SessionHandler(session: session)
    }

    static func makeSessionID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<16).map { _ in alphabet[Int.random(in: alphabet.indices)] })
    }
}
