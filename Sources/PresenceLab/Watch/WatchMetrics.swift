import Foundation
import Prometheus
import RTDBServer
import Synchronization
import WatchModel

/// What `presencetop watch --metrics-listen` serves: the watched figures in Prometheus' text
/// format (swift-prometheus), under `presencetop_watch_…`, with the process's own.
///
/// Per-database series are labelled with the database's name (`127.0.0.1:9000 ns=a`): a set
/// fixed when the watch starts. A layout that lists no connections (`--layout status`) has no
/// connections series: a 0 there would be a claim it cannot make.
public final class WatchMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let users: Gauge
    private let online: Gauge
    private let listLoaded: Gauge
    private let presenceChanges: Counter
    private let process: ProcessMetrics
    private let state = Mutex(State())

    /// Series made once their figure first exists (connections, this device's queue), and what
    /// the counters have been brought to (they only go up by what the figures add).
    private struct State {
        var connections: Gauge?
        var pendingWrites: Gauge?
        var pendingBytes: Gauge?
        var acknowledged: Counter?
        var countedAcknowledged = 0
        var countedChanges = 0
        var databases: [String: DatabaseSeries] = [:]
    }

    /// One database's series.
    private struct DatabaseSeries {
        var connected: Gauge
        var stale: Gauge
        var secondsSinceHeard: Gauge
        var clockSkew: Gauge
        var users: Gauge
    }

    /// The metrics, all at zero.
    public init() {
        users = registry.gauge(name: "presencetop_watch_users", help: "Users listed (over every database).")
        online = registry.gauge(name: "presencetop_watch_users_online", help: "Users online.")
        listLoaded = registry.gauge(
            name: "presencetop_watch_list_loaded", help: "1 once every database's first list has been read.")
        presenceChanges = registry.counter(
            name: "presencetop_watch_presence_changes_total", help: "Users whose presence changed, as lines written.")
        process = ProcessMetrics(registry)
    }

    /// The metrics as of `figures`, in Prometheus' text format (version 0.0.4).
    public func text(_ figures: WatchFigures) -> String {
        update(figures)
        process.update()
        return registry.emitToString()
    }

    private func update(_ figures: WatchFigures) {
        users.set(Int64(figures.totals.users))
        online.set(Int64(figures.totals.online))
        listLoaded.set(Int64(figures.listLoaded ? 1 : 0))
        let registry = registry
        state.withLock { state in
            if figures.presenceChanges > state.countedChanges {
                presenceChanges.increment(by: Int64(figures.presenceChanges - state.countedChanges))
                state.countedChanges = figures.presenceChanges
            }
            if let connections = figures.connections {
                state.connections =
                    state.connections
                    ?? registry.gauge(
                        name: "presencetop_watch_connections", help: "Connections listed (layouts that list them).")
                state.connections?.set(Int64(connections))
            }
            if let pending = figures.pendingWrites {
                if state.pendingWrites == nil {
                    state.pendingWrites = registry.gauge(
                        name: "presencetop_watch_pending_writes", help: "This device's writes waiting for the server.")
                    state.pendingBytes = registry.gauge(
                        name: "presencetop_watch_pending_bytes", help: "The bytes of this device's waiting writes.")
                    state.acknowledged = registry.counter(
                        name: "presencetop_watch_writes_acknowledged_total",
                        help: "This device's writes the server acknowledged; its rate is the queue's drain rate.")
                }
                state.pendingWrites?.set(Int64(pending))
                state.pendingBytes?.set(Int64(figures.pendingBytes ?? 0))
                if figures.acknowledgedWrites > state.countedAcknowledged {
                    state.acknowledged?.increment(by: Int64(figures.acknowledgedWrites - state.countedAcknowledged))
                    state.countedAcknowledged = figures.acknowledgedWrites
                }
            }
            for database in figures.databases {
                let series = state.databases[database.name] ?? Self.series(registry, database.name)
                state.databases[database.name] = series
                series.connected.set(Int64(database.state == "connected" || database.state == "stale" ? 1 : 0))
                series.stale.set(Int64(database.state == "stale" ? 1 : 0))
                series.secondsSinceHeard.set(database.secondsSinceHeard ?? .nan)
                series.clockSkew.set(database.clockSkewSeconds)
                series.users.set(Int64(database.users))
            }
        }
    }

    private static func series(_ registry: PrometheusCollectorRegistry, _ name: String) -> DatabaseSeries {
        let labels = [("database", name)]
        return DatabaseSeries(
            connected: registry.gauge(
                name: "presencetop_watch_connected", labels: labels,
                help: "1 while the watcher is connected to the database (.info/connected)."),
            stale: registry.gauge(
                name: "presencetop_watch_stale", labels: labels,
                help: "1 while the watcher is connected but has heard nothing for longer than the heartbeat allows."),
            secondsSinceHeard: registry.gauge(
                name: "presencetop_watch_seconds_since_heard", labels: labels,
                help: "Seconds since the watcher last heard from the database (NaN: never)."),
            clockSkew: registry.gauge(
                name: "presencetop_watch_clock_skew_seconds", labels: labels,
                help: "The database server's clock minus this machine's, as the watcher measured it."),
            users: registry.gauge(
                name: "presencetop_watch_database_users", labels: labels, help: "Users the database lists."))
    }
}
