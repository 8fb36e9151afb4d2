/// Reconnect back-off (docs/wire-protocol.md#reconnecting): 1 s, ×1.3 per failure, at most 30 s,
/// with jitter; reset after a connection has lasted 30 s.
public struct RetryPolicy: Sendable {
    /// The first delay.
    public var minimumDelay: Duration = .seconds(1)
    /// The longest delay.
    public var maximumDelay: Duration = .seconds(30)
    /// The growth per failure.
    public var multiplier: Double = 1.3
    /// A connection that lasted this long resets the delay.
    public var resetAfter: Duration = .seconds(30)
    /// The share of the delay that is random (Android/iOS use 0.7: delay × (0.3 + 0.7·rand)).
    public var jitter: Double = 0.7
    /// An attempt with no hello from the server after this long is given up and retried (the
    /// Android SDK's 30 s): a network that swallows everything never fails a connect.
    public var connectTimeout: Duration = .seconds(30)
    /// How often a connected client pings the server (a keepalive, and a clock-skew sample): 10 s.
    ///
    /// Shorter shows a dead network and a stepped clock sooner, for a few bytes more.
    public var pingInterval: Duration = .seconds(10)

    /// The default policy.
    public init() {}

    /// The delay before attempt `failures + 1`, given a uniform random number in [0, 1).
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = minimumDelay
        for _ in 1..<failures { delay = min(maximumDelay, delay * multiplier) }
        return delay * (1 - jitter + jitter * random)
    }
}
