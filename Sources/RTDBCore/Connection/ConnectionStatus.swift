// The vocabulary of a client connection's state: the engine reports it, and the lab's snapshots
// carry it to whatever shows it (a dashboard), which then needs nothing of the engine.

/// Where a client's connection stands, in more detail than `.info/connected`.
public enum ConnectionPhase: Sendable, Hashable {
    /// Not connected and not trying: `goOffline()`, or before the first connect.
    case offline
    /// Opening a connection (attempt 1, 2, …).
    case connecting(attempt: Int)
    /// Handshake done: `.info/connected` is true.
    case connected(sessionID: String)
    /// Disconnected; the next attempt is scheduled at `retryAt` (local clock; nil: not scheduled,
    /// the server asked it to stay away).
    case waitingToRetry(attempt: Int, retryAt: UnixTime?, reason: String)

    /// Whether the handshake is done (what `.info/connected` says).
    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }
}

/// An estimate of how far the local clock is from the server's, with its error bound.
public struct ClockSkewEstimate: Sendable, Hashable {
    /// Server time minus local time, compensated for half the round trip.
    public var offset: Duration
    /// The estimate is within ± this much (half the round trip of the sample used).
    public var errorBound: Duration
    /// How many samples the estimate has seen.
    public var samples: Int

    /// Makes an estimate.
    public init(offset: Duration, errorBound: Duration, samples: Int) {
        self.offset = offset
        self.errorBound = errorBound
        self.samples = samples
    }
}

/// A snapshot of a client's connection, for the dashboard.
public struct ConnectionStatus: Sendable, Hashable {
    /// Where the connection stands.
    public var phase: ConnectionPhase
    /// The SDK-style offset: handshake `ts` minus local time at receipt (whole milliseconds, as
    /// `.info/serverTimeOffset` has it).
    public var serverTimeOffset: Duration
    /// The round-trip-compensated skew estimate, once a sample exists.
    public var clockSkew: ClockSkewEstimate?
    /// The last measured round trip.
    public var lastRoundTrip: Duration?
    /// When the current connection was established (local clock), if connected.
    public var connectedAt: UnixTime?
    /// When anything last arrived from the server (local clock), if anything has: under a blackhole
    /// the connection still looks open while this stops moving.
    public var lastHeardAt: UnixTime?
    /// The last step of the local wall clock the client noticed, if any.
    public var lastClockJump: ClockJump?
    /// A large message arriving in fragments (a first load of a big list), while it arrives.
    public var arriving: ArrivingMessage?

    /// How far a message sent in fragments has arrived.
    public struct ArrivingMessage: Sendable, Hashable {
        /// Its bytes received so far.
        public var bytes: Int
        /// Its fragments received so far.
        public var fragments: Int
        /// The fragments the server announced.
        public var of: Int
        /// The entries of the data it carries read so far (a first load's users), as the
        /// fragments arrive.
        public var entries: Int

        /// Makes a progress report.
        public init(bytes: Int, fragments: Int, of: Int, entries: Int = 0) {
            self.bytes = bytes
            self.fragments = fragments
            self.of = of
            self.entries = entries
        }
    }

    /// Makes a status.
    public init(
        phase: ConnectionPhase, serverTimeOffset: Duration = .zero, clockSkew: ClockSkewEstimate? = nil,
        lastRoundTrip: Duration? = nil, connectedAt: UnixTime? = nil, lastHeardAt: UnixTime? = nil
    ) {
        self.phase = phase
        self.serverTimeOffset = serverTimeOffset
        self.clockSkew = clockSkew
        self.lastRoundTrip = lastRoundTrip
        self.connectedAt = connectedAt
        self.lastHeardAt = lastHeardAt
    }
}
