import Prometheus

/// What the server counts of bytes: read from and written to WebSocket sessions, and to and from
/// client connections as HTTP reads and writes them.
struct TrafficMetrics: Sendable {
    /// Bytes read from WebSocket connections.
    let webSocketReceived: Counter
    /// Bytes of protocol text written to WebSocket sessions.
    let webSocketSent: Counter
    /// Bytes read from client connections.
    let connectionReceived: Counter
    /// Bytes written to client connections.
    let connectionSent: Counter

    /// The traffic metrics, at zero, in `registry`.
    init(_ registry: PrometheusCollectorRegistry) {
        webSocketReceived = registry.counter(
            name: "presencetop_websocket_received_bytes_total",
            help: "Bytes read from WebSocket connections (frames as they arrive).")
        webSocketSent = registry.counter(
            name: "presencetop_websocket_sent_bytes_total",
            help: "Bytes of protocol text written to WebSocket sessions.")
        connectionReceived = registry.counter(
            name: "presencetop_connection_received_bytes_total",
            help: "Bytes read from client connections: REST, event streams and WebSocket, as HTTP reads them.")
        connectionSent = registry.counter(
            name: "presencetop_connection_sent_bytes_total",
            help: "Bytes written to client connections: REST answers, event streams and WebSocket frames.")
    }
}
