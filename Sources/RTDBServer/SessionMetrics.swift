import Prometheus

/// What the server counts of its WebSocket sessions: open, opened, refused and ended, the
/// listens and onDisconnect operations they hold, and the messages refused as malformed.
struct SessionMetrics: Sendable {
    /// Sessions open now.
    let open: Gauge
    /// Sessions opened.
    let opened: Counter
    /// Sessions refused as they opened, by reason.
    let refused: [ServerMetrics.SessionRefusal: Counter]
    /// Sessions that ended, by reason.
    let closed: [ServerMetrics.SessionEnd: Counter]
    /// Listens the sessions hold now.
    let listensActive: Gauge
    /// onDisconnect operations the open sessions have registered.
    let onDisconnectRegistered: Gauge
    /// onDisconnect writes run.
    let onDisconnectRun: Counter
    /// Messages refused as malformed or too big.
    let malformedMessages: Counter

    /// The session metrics, at zero, in `registry`.
    init(_ registry: PrometheusCollectorRegistry) {
        open = registry.gauge(name: "presencetop_sessions_open", help: "WebSocket sessions open now.")
        opened = registry.counter(name: "presencetop_sessions_opened_total", help: "WebSocket sessions opened.")
        refused = ServerMetrics.counters(
            registry, "presencetop_sessions_refused_total", by: "reason", \.rawValue,
            help: "WebSocket sessions refused as they opened, by reason.")
        closed = ServerMetrics.counters(
            registry, "presencetop_sessions_closed_total", by: "reason", \.rawValue,
            help: "WebSocket sessions that ended, by reason.")
        listensActive = registry.gauge(
            name: "presencetop_listens_active", help: "Listens the WebSocket sessions hold now.")
        onDisconnectRegistered = registry.gauge(
            name: "presencetop_ondisconnect_registered",
            help: "onDisconnect operations the open sessions have registered.")
        onDisconnectRun = registry.counter(
            name: "presencetop_ondisconnect_run_total",
            help: "onDisconnect writes run (their session ended), each location one.")
        malformedMessages = registry.counter(
            name: "presencetop_malformed_messages_total",
            help: "WebSocket messages refused as malformed or too big (not JSON, not a request, past the limit).")
    }
}
