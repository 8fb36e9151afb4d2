import Foundation
import LinkSim
import Presence
import RTDBClient

/// Everything a dashboard shows of a ``Simulation`` at one moment: plain values, cheap to make.
public struct SimulationSnapshot: Sendable, Equatable {
    /// This device as it stands.
    public struct ThisDevice: Sendable, Equatable {
        /// The user it is signed in as.
        public var user: String
        /// Its device name.
        public var device: String
        /// Its presence entry's key, once connected.
        public var entryKey: String?
        /// Its connection: phase, round trip, offsets, when the server was last heard from.
        public var status: ConnectionStatus
        /// Its link: mode, conditions, bytes.
        public var link: LinkStats
        /// Whether the link's slow conditions (the latency toggle) are on.
        public var isSlow: Bool
        /// How far its clock was moved from the machine's, ms.
        public var clockOffsetMs: Int64
        /// Writes not yet acknowledged, oldest first.
        public var pendingWrites: [PendingWrite]
        /// Writes the server refused.
        public var deadLetters: [DeadLetter]
        /// Whether its credential was expired on purpose (`a`).
        public var credentialExpired: Bool
        /// When its credential expires, ms since the epoch (nil: it does not).
        public var credentialExpiresAt: Int64?

        /// Makes a snapshot of this device.
        public init(
            user: String, device: String, entryKey: String? = nil, status: ConnectionStatus, link: LinkStats,
            isSlow: Bool = false, clockOffsetMs: Int64 = 0, pendingWrites: [PendingWrite] = [],
            deadLetters: [DeadLetter] = [], credentialExpired: Bool = false, credentialExpiresAt: Int64? = nil
        ) {
            self.credentialExpiresAt = credentialExpiresAt
            self.user = user
            self.device = device
            self.entryKey = entryKey
            self.status = status
            self.link = link
            self.isSlow = isSlow
            self.clockOffsetMs = clockOffsetMs
            self.pendingWrites = pendingWrites
            self.deadLetters = deadLetters
            self.credentialExpired = credentialExpired
        }
    }

    /// One simulated device's clock: what it was given and what its client measured.
    public struct DeviceClock: Sendable, Equatable {
        /// `user/device`.
        public var label: String
        /// The offset it was given (ms ahead of the machine's clock).
        public var injectedOffsetMs: Int64
        /// Its client's estimate of server time minus local time, ms, once measured.
        public var estimatedOffsetMs: Double?

        /// Makes a device clock.
        public init(label: String, injectedOffsetMs: Int64, estimatedOffsetMs: Double? = nil) {
            self.label = label
            self.injectedOffsetMs = injectedOffsetMs
            self.estimatedOffsetMs = estimatedOffsetMs
        }
    }

    /// When it was taken (the machine's clock, ms since the epoch).
    public var takenAt: Int64
    /// The server, for the header (`embedded 127.0.0.1:41234 ns=presencetop`).
    public var server: String
    /// The server's heartbeat timeout, when known (embedded).
    public var heartbeatTimeout: Duration?
    /// This device, if the simulation has one.
    public var thisDevice: ThisDevice?
    /// Everyone's presence as the server has it, sorted by user id.
    public var users: [UserPresence]
    /// For each connection entry key whose session the server's table shows: ms since the server
    /// last heard from that connection (embedded only).
    public var silenceMs: [String: Int64]
    /// Which entry keys are this device's.
    public var ownEntryKeys: Set<String>
    /// Every simulated device's clock.
    public var deviceClocks: [DeviceClock]
    /// Whether the server is known to enforce the presence rules (the embedded one does; another
    /// server's rules are its own, and may be none).
    public var enforcesPresenceRules = false
    /// The connection that feeds ``users`` (the simulation's watcher, straight to the server).
    public var presenceFeed: ConnectionStatus?
    /// How long a connection may go without hearing from the server before what it fed counts
    /// as stale: the server's heartbeat timeout, and never less than three pings.
    public var staleAfter: Duration = .seconds(15)

    /// Makes a snapshot.
    public init(
        takenAt: Int64, server: String, heartbeatTimeout: Duration? = nil, thisDevice: ThisDevice? = nil,
        users: [UserPresence] = [], silenceMs: [String: Int64] = [:], ownEntryKeys: Set<String> = [],
        deviceClocks: [DeviceClock] = []
    ) {
        self.takenAt = takenAt
        self.server = server
        self.heartbeatTimeout = heartbeatTimeout
        self.thisDevice = thisDevice
        self.users = users
        self.silenceMs = silenceMs
        self.ownEntryKeys = ownEntryKeys
        self.deviceClocks = deviceClocks
    }

    /// When the server last confirmed what a connection with `status` fed (its local clock, ms),
    /// if that is stale at `now` (the same clock): `.some(nil)` when it never heard anything, nil
    /// while it is live.
    public func staleSince(_ status: ConnectionStatus, now: Int64) -> Int64?? {
        guard status.phase.isConnected, let heard = status.lastHeardAt else { return .some(status.lastHeardAt) }
        return .milliseconds(now - heard) > staleAfter ? .some(heard) : nil
    }

    /// Whether the server has not heard from the connection with this entry key for over half its
    /// heartbeat timeout: it may be gone without having said so (a blackhole).
    public func isSuspect(entryKey: String) -> Bool {
        guard let silence = silenceMs[entryKey], let timeout = heartbeatTimeout else { return false }
        return .milliseconds(silence * 2) > timeout
    }

    /// The server's time now as this device estimates it (its clock plus the measured skew), or
    /// the machine's clock when there is no estimate.
    public var serverTimeEstimate: Int64 {
        guard let device = thisDevice else { return takenAt }
        let offset = device.status.clockSkew?.offsetMs ?? Double(device.status.serverTimeOffsetMs)
        return takenAt + device.clockOffsetMs + Int64(offset.rounded())
    }
}
