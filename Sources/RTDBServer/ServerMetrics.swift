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

    let sessionsOpen: Gauge
    let sessionsOpened: Counter
    let sessionsRefused: [SessionRefusal: Counter]
    let sessionsClosed: [SessionEnd: Counter]
    let listensActive: Gauge
    let onDisconnectRegistered: Gauge
    let namespacesOpen: Gauge
    let writesStored: Counter
    let writesDiskRefused: Counter
    let writesRulesDenied: Counter
    let groupCommitWrites: ValueHistogram
    let commitSeconds: DurationHistogram
    let writeAckSeconds: DurationHistogram
    let storeFailures: Counter
    let denials: [RuleDenial.Operation: Counter]
    let process: ProcessMetrics
    let webSocketReceivedBytes: Counter
    let webSocketSentBytes: Counter
    let connectionReceivedBytes: Counter
    let connectionSentBytes: Counter
    let onDisconnectRun: Counter
    let malformedMessages: Counter

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
        sessionsOpen = registry.makeGauge(
            name: "presencetop_sessions_open", help: "WebSocket sessions open now.")
        sessionsOpened = registry.makeCounter(
            name: "presencetop_sessions_opened_total", help: "WebSocket sessions opened.")
        sessionsRefused = Self.counters(
            registry, "presencetop_sessions_refused_total", by: "reason", \.rawValue,
            help: "WebSocket sessions refused as they opened, by reason.")
        sessionsClosed = Self.counters(
            registry, "presencetop_sessions_closed_total", by: "reason", \.rawValue,
            help: "WebSocket sessions that ended, by reason.")
        listensActive = registry.makeGauge(
            name: "presencetop_listens_active", help: "Listens the WebSocket sessions hold now.")
        onDisconnectRegistered = registry.makeGauge(
            name: "presencetop_ondisconnect_registered",
            help: "onDisconnect operations the open sessions have registered.")
        namespacesOpen = registry.makeGauge(name: "presencetop_namespaces_open", help: "Namespaces open now.")
        let registry = registry
        func writes(_ outcome: String) -> Counter {
            registry.makeCounter(
                name: "presencetop_writes_total", labels: [("outcome", outcome)], help: "Writes, by outcome.")
        }
        writesStored = writes("stored")
        writesDiskRefused = writes("disk_refused")
        writesRulesDenied = writes("rules_denied")
        groupCommitWrites = registry.makeValueHistogram(
            name: "presencetop_group_commit_writes", buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
            help: "Writes stored by one commit to the disk.")
        commitSeconds = registry.makeDurationHistogram(
            name: "presencetop_commit_seconds",
            buckets: [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
            ],
            help: "How long one commit to the disk took.")
        writeAckSeconds = registry.makeDurationHistogram(
            name: "presencetop_write_ack_seconds",
            buckets: [
                .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                .seconds(1), .seconds(5),
            ],
            help: "From a client's write applied to its acknowledgement (once stored).")
        storeFailures = registry.makeCounter(
            name: "presencetop_store_failures_total", help: "Commits to the disk that failed (a full or broken disk).")
        denials = Self.counters(
            registry, "presencetop_rules_denials_total", by: "operation", Self.label,
            help: "Requests the security rules refused, by operation.")
        webSocketReceivedBytes = registry.makeCounter(
            name: "presencetop_websocket_received_bytes_total",
            help: "Bytes read from WebSocket connections (frames as they arrive).")
        webSocketSentBytes = registry.makeCounter(
            name: "presencetop_websocket_sent_bytes_total",
            help: "Bytes of protocol text written to WebSocket sessions.")
        connectionReceivedBytes = registry.makeCounter(
            name: "presencetop_connection_received_bytes_total",
            help: "Bytes read from client connections: REST, event streams and WebSocket, as HTTP reads them.")
        connectionSentBytes = registry.makeCounter(
            name: "presencetop_connection_sent_bytes_total",
            help: "Bytes written to client connections: REST answers, event streams and WebSocket frames.")
        onDisconnectRun = registry.makeCounter(
            name: "presencetop_ondisconnect_run_total",
            help: "onDisconnect writes run (their session ended), each location one.")
        malformedMessages = registry.makeCounter(
            name: "presencetop_malformed_messages_total",
            help: "WebSocket messages refused as malformed or too big (not JSON, not a request, past the limit).")
        process = ProcessMetrics(registry)
    }

    /// One counter of family `name` for each case of `Key`, labelled `label` with `value(case)`.
    static func counters<Key: CaseIterable & Hashable>(
        _ registry: PrometheusCollectorRegistry, _ name: String, by label: String, _ value: (Key) -> String,
        help: String
    ) -> [Key: Counter] {
        var counters: [Key: Counter] = [:]
        for key in Key.allCases {
            counters[key] = registry.makeCounter(name: name, labels: [(label, value(key))], help: help)
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
