/// What one client may ask of the server at once, so that it cannot starve the others
/// (docs/command-line.md, "Limits").
///
/// A client over the request window or the message rate is slowed, not refused: the server stops
/// reading its socket until it catches up (TCP pushes back on that client alone), and tells it
/// once with an `e` control message. A listen over the limit is refused with `limit_exceeded`; a
/// connection over the namespace's session limit gets an `e` message and a close (1013, try again
/// later), which the SDKs answer by reconnecting with back-off.
public struct ConnectionLimits: Sendable, Equatable {
    /// Requests read from one connection and not yet handled by its namespace.
    public var outstandingRequests = 1_000
    /// Messages one connection may send per second, on average (it may send this many at once).
    public var messagesPerSecond = 10_000
    /// Listens one connection may hold.
    public var listensPerConnection = 10_000
    /// WebSocket sessions one namespace may hold.
    public var sessionsPerNamespace = 20_000

    /// The defaults.
    public init() {}

    /// No limit that a test or a benchmark's baseline would notice.
    public static let unlimited: ConnectionLimits = {
        var limits = ConnectionLimits()
        limits.outstandingRequests = 1 << 30
        limits.messagesPerSecond = 1 << 30
        limits.listensPerConnection = 1 << 30
        limits.sessionsPerNamespace = 1 << 30
        return limits
    }()
}
