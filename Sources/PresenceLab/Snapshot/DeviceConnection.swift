import RTDBCore

/// A device's connection as a snapshot shows it: where it stands, its round trip and its clock.
public struct DeviceConnection: Sendable, Equatable {
    /// Where the connection stands.
    public enum Phase: Sendable, Equatable {
        /// Not connected and not trying.
        case offline
        /// Opening a connection (attempt 1, 2, …).
        case connecting(attempt: Int)
        /// Handshake done: `.info/connected` is true.
        case connected(sessionID: String)
        /// Disconnected; the next attempt is at `retryAt` (the device's clock; nil: none is
        /// scheduled, the server asked it to stay away).
        case waitingToRetry(attempt: Int, retryAt: UnixTime?, reason: String)

        /// Whether the handshake is done (what `.info/connected` says).
        public var isConnected: Bool {
            if case .connected = self { return true }
            return false
        }
    }

    /// The client's round-trip-compensated estimate of server time minus its own.
    public struct Skew: Sendable, Equatable {
        /// Server time minus the device's time.
        public var offset: Duration
        /// The estimate is within ± this much.
        public var errorBound: Duration
        /// How many samples it has seen.
        public var samples: Int

        /// Makes an estimate.
        public init(offset: Duration, errorBound: Duration, samples: Int) {
            self.offset = offset
            self.errorBound = errorBound
            self.samples = samples
        }
    }

    /// Where it stands.
    public var phase: Phase
    /// `.info/serverTimeOffset`: the handshake's server time minus the device's at receipt.
    public var serverTimeOffset: Duration
    /// The continuous skew estimate, once measured.
    public var skew: Skew?
    /// The last measured round trip.
    public var roundTrip: Duration?
    /// When the current connection was made (the device's clock), if connected.
    public var connectedAt: UnixTime?
    /// When anything last arrived from the server (the device's clock), if anything has.
    public var lastHeardAt: UnixTime?

    /// Makes a connection's snapshot.
    public init(
        phase: Phase, serverTimeOffset: Duration = .zero, skew: Skew? = nil, roundTrip: Duration? = nil,
        connectedAt: UnixTime? = nil, lastHeardAt: UnixTime? = nil
    ) {
        self.phase = phase
        self.serverTimeOffset = serverTimeOffset
        self.skew = skew
        self.roundTrip = roundTrip
        self.connectedAt = connectedAt
        self.lastHeardAt = lastHeardAt
    }
}
