import Logging
import RTDBCore

/// What a server's WebSocket sessions and its REST responder share: made once per server and
/// referenced, not copied (a copy of the configuration and the rest cost every connection about
/// 350 bytes).
final class ServerServices: Sendable {
    let registry: NamespaceRegistry
    let configuration: ServerConfiguration
    let connections: ConnectionTable
    let directory: SessionDirectory
    let clock: WallClock
    let timers: any Clock<Duration>
    let heartbeats: HeartbeatMonitor
    let logger: Logger
    let metrics: ServerMetrics

    init(
        registry: NamespaceRegistry, configuration: ServerConfiguration, connections: ConnectionTable,
        directory: SessionDirectory, clock: @escaping WallClock, timers: any Clock<Duration>,
        heartbeats: HeartbeatMonitor, logger: Logger, metrics: ServerMetrics
    ) {
        self.metrics = metrics
        self.registry = registry
        self.configuration = configuration
        self.connections = connections
        self.directory = directory
        self.clock = clock
        self.timers = timers
        self.heartbeats = heartbeats
        self.logger = logger
    }
}
