import Foundation
import Prometheus
import RTDBCore
import RTDBRules

/// What the server counts for `GET /metrics`, in the Prometheus text format (swift-prometheus).
///
/// Each server has its own registry (no process-wide bootstrap), so that several servers in one
/// process (the lab, the tests) count apart. Names and units follow Prometheus' conventions:
/// `presencetop_…_total` for counters, `_seconds` and `_bytes` for units. Labels are bounded
/// sets (an outcome, an operation, a reason), never a path, a uid or a namespace's data.
public final class ServerMetrics: Sendable {
    /// The registry the metrics live in.
    let registry = PrometheusCollectorRegistry()
    /// Signalled as a session ends, a message is refused as malformed, a heartbeat tick is judged
    /// and stored writes are published: what a test waits on instead of polling `/metrics` or
    /// the data.
    public let changes = ChangeSignal()
    /// Signalled as each scrape of `/metrics` is answered.
    public let scrapes = ChangeSignal()

    /// The WebSocket sessions, their listens and onDisconnect operations, their messages.
    let sessions: SessionMetrics
    /// The writes: stored or refused, their commits, their acknowledgements, the rules' denials.
    let writes: WriteMetrics
    /// The bytes read and written.
    let traffic: TrafficMetrics
    /// Namespaces open now.
    let namespacesOpen: Gauge
    /// The process: CPU, memory, descriptors.
    let process: ProcessMetrics

    /// Why a WebSocket session was refused as it opened.
    enum SessionRefusal: String, CaseIterable, Sendable {
        /// Its namespace holds `--max-sessions-per-namespace` sessions.
        case sessionLimit = "session_limit"
        /// The server is stopping.
        case stopping
        /// Its namespace could not be opened (an invalid name, its files).
        case namespaceUnavailable = "namespace_unavailable"
        /// The database is served elsewhere (`--redirect`): the client was sent there.
        case redirect
    }

    /// Why an open WebSocket session ended.
    enum SessionEnd: String, CaseIterable, Sendable {
        /// The client closed it (or its connection dropped, as the server saw).
        case clientClose = "client_close"
        /// Nothing heard for the heartbeat timeout.
        case heartbeatTimeout = "heartbeat_timeout"
        /// The client broke the protocol (a frame too big, not WebSocket, not protocol v5).
        case error
        /// The server stopped.
        case serverStop = "server_stop"
    }

    /// Makes the server's metrics, all at zero.
    public init() {
        sessions = SessionMetrics(registry)
        writes = WriteMetrics(registry)
        traffic = TrafficMetrics(registry)
        namespacesOpen = registry.gauge(name: "presencetop_namespaces_open", help: "Namespaces open now.")
        process = ProcessMetrics(registry)
    }

    /// One counter of family `name` for each case of `Key`, labelled `label` with `value(case)`.
    static func counters<Key: CaseIterable & Hashable>(
        _ registry: PrometheusCollectorRegistry, _ name: String, by label: String, _ value: (Key) -> String,
        help: String
    ) -> [Key: Counter] {
        var counters: [Key: Counter] = [:]
        for key in Key.allCases {
            counters[key] = registry.counter(name: name, labels: [(label, value(key))], help: help)
        }
        return counters
    }

    /// An operation as a label value, in Prometheus' lower snake case (`on_disconnect`).
    static func label(_ operation: RuleDenial.Operation) -> String {
        operation.rawValue.reduce(into: "") { text, character in
            text += character.isUppercase ? "_" + character.lowercased() : String(character)
        }
    }

    /// The metrics as Prometheus' text format (version 0.0.4).
    func text() -> String {
        process.update()
        return registry.emitToString()
    }
}
