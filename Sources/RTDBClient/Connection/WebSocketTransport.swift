import NIOSSL
import RTDBCore
import Synchronization

/// The real transport: a WebSocket on swift-nio's HTTP upgrade and frame codec (TLS via
/// swift-nio-ssl for `wss://`), in a channel pipeline (``WebSocketTransportConnection``).
public struct WebSocketTransport: Transport {
    /// The TLS settings for `wss://` (nil: the system's trusted roots).
    public var tlsConfiguration: TLSConfiguration?
    /// How long the TCP connect and the WebSocket upgrade may take together before the attempt
    /// is reported closed.
    public var upgradeTimeout: Duration
    /// What the upgrade bound and the close's grace period sleep on.
    public var time: TimeSource

    /// Makes the transport; pass a TLS configuration to trust other roots (a local certificate).
    public init(
        tlsConfiguration: TLSConfiguration? = nil, upgradeTimeout: Duration = .seconds(10), time: TimeSource = .system
    ) {
        self.tlsConfiguration = tlsConfiguration
        self.upgradeTimeout = upgradeTimeout
        self.time = time
    }

    /// Opens a WebSocket; frames are written in order, gathered into one write per event loop turn.
    public func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void)
        -> any TransportConnection
    {
        let connection = WebSocketTransportConnection(timers: time.clock, onEvent: onEvent)
        connection.start(url: url, tlsConfiguration: tlsConfiguration, upgradeTimeout: upgradeTimeout)
        return connection
    }
}
