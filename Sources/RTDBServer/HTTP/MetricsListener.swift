import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `GET /metrics` on an address of its own, answered in Prometheus' text format from a
/// function: `presencetop watch --metrics-listen` serves its figures with it, as `serve
/// --metrics-listen` serves the server's.
public final class MetricsListener: Sendable {
    /// The address to bind (port 0: any free port).
    public let host: String
    /// The port to bind.
    public let port: Int
    /// The metrics now, in Prometheus' text format (version 0.0.4).
    private let scrape: @Sendable () async -> String
    /// The running listener, to stop (nil before ``run(logger:onListening:)`` and after ``stop()``).
    private let running = Mutex<ServiceGroup?>(nil)
    /// Whether ``stop()`` came first.
    private let stopped = Mutex(false)

    /// A listener on `host:port` answering with `scrape`.
    public init(host: String, port: Int, scrape: @escaping @Sendable () async -> String) {
        self.host = host
        self.port = port
        self.scrape = scrape
    }

    /// Serves until ``stop()``.
    ///
    /// - Parameter onListening: Called once with the bound host and port.
    /// - Throws: When the address cannot be bound (in use, not this machine's).
    public func run(
        logger: Logger, onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) async throws {
        let (host, scrape) = (host, scrape)
        let app = Application(
            responder: MetricsResponder { Self.response(await scrape()) },
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onListening(host, channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        running.withLock { $0 = group }
        if stopped.withLock({ $0 }) { return }
        try await group.run()
    }

    /// Stops serving: the listener closes, and ``run(logger:onListening:)`` returns.
    public func stop() async {
        stopped.withLock { $0 = true }
        await running.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// `text` as a scrape's answer.
    static func response(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
