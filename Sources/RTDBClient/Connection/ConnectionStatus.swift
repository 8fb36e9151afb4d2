/// Where a client's connection stands, in more detail than `.info/connected`.
public enum ConnectionPhase: Sendable, Hashable {
    /// Not connected and not trying: `goOffline()`, or before the first connect.
    case offline
    /// Opening a connection (attempt 1, 2, …).
    case connecting(attempt: Int)
    /// Handshake done: `.info/connected` is true.
    case connected(sessionID: String)
    /// Disconnected; the next attempt is scheduled at `retryAt` (ms since the epoch, local clock).
    case waitingToRetry(attempt: Int, retryAt: Int64, reason: String)

    /// Whether the handshake is done (what `.info/connected` says).
    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }
}

/// An estimate of how far the local clock is from the server's, with its error bound.
public struct ClockSkewEstimate: Sendable, Hashable {
    /// Server time minus local time, in ms, compensated for half the round trip.
    public var offsetMs: Double
    /// The estimate is within ± this many ms (half the round trip of the sample used).
    public var errorBoundMs: Double
    /// How many samples the estimate has seen.
    public var samples: Int

    /// Makes an estimate.
    public init(offsetMs: Double, errorBoundMs: Double, samples: Int) {
        self.offsetMs = offsetMs
        self.errorBoundMs = errorBoundMs
        self.samples = samples
    }
}

/// A snapshot of a client's connection, for the dashboard.
public struct ConnectionStatus: Sendable, Hashable {
    /// Where the connection stands.
    public var phase: ConnectionPhase
    /// The SDK-style offset: handshake `ts` minus local time at receipt, ms.
    public var serverTimeOffsetMs: Int64
    /// The round-trip-compensated skew estimate, once a sample exists.
    public var clockSkew: ClockSkewEstimate?
    /// The last measured round trip, ms.
    public var lastRoundTripMs: Double?
    /// When the current connection was established (local ms), if connected.
    public var connectedAt: Int64?
    /// When anything last arrived from the server (local ms), if anything has: under a blackhole
    /// the connection still looks open while this stops moving.
    public var lastHeardAt: Int64?

    /// Makes a status.
    public init(
        phase: ConnectionPhase, serverTimeOffsetMs: Int64, clockSkew: ClockSkewEstimate? = nil,
        lastRoundTripMs: Double? = nil, connectedAt: Int64? = nil, lastHeardAt: Int64? = nil
    ) {
        self.phase = phase
        self.serverTimeOffsetMs = serverTimeOffsetMs
        self.clockSkew = clockSkew
        self.lastRoundTripMs = lastRoundTripMs
        self.connectedAt = connectedAt
        self.lastHeardAt = lastHeardAt
    }
}
