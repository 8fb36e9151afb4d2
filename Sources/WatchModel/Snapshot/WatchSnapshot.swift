import PresenceModel
import RTDBCore

/// Everything a dashboard shows of a watched database at one moment (the lab's simulation, your
/// own project, a recording played back): plain values, cheap to make.
///
/// Its types are values (``ConnectionStatus``, ``DeviceLink``, ``QueuedWrite``): a view of the
/// engine and the links, so that what draws it needs neither.
public struct WatchSnapshot: Sendable, Equatable {
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
        public var link: DeviceLink
        /// Whether the link's slow conditions (the latency toggle) are on.
        public var isSlow: Bool
        /// How far its clock was moved from the machine's (ahead when positive).
        public var clockOffset: Duration
        /// Writes not yet acknowledged, oldest first.
        public var pendingWrites: [QueuedWrite]
        /// The bytes they take (their data as stored).
        public var pendingBytes: Int { pendingWrites.reduce(0) { $0 + $1.bytes } }
        /// The most bytes its write queue may hold; a write past it fails (`queue_full`).
        public var pendingBytesBound: Int
        /// Writes the server refused (each in the ``QueuedWrite/State/refused(status:reason:)`` state).
        public var deadLetters: [QueuedWrite]
        /// Whether its credential was expired on purpose (`a`).
        public var credentialExpired: Bool
        /// When its credential expires (nil: it does not).
        public var credentialExpiresAt: UnixTime?
        /// The standalone link its traffic crosses, when attached to one (its keys drive it).
        public var proxy: ProxyLink?
        /// Why its disk store fails (a full disk, an I/O error); nil while it works.
        public var storeFailing: String?

        /// Makes a snapshot of this device.
        public init(
            user: String, device: String, entryKey: String? = nil, status: ConnectionStatus, link: DeviceLink,
            isSlow: Bool = false, clockOffset: Duration = .zero, pendingWrites: [QueuedWrite] = [],
            pendingBytesBound: Int = WriteQueueLimits.defaultMaxPendingBytes, deadLetters: [QueuedWrite] = [],
            credentialExpired: Bool = false, credentialExpiresAt: UnixTime? = nil
        ) {
            self.pendingBytesBound = pendingBytesBound
            self.credentialExpiresAt = credentialExpiresAt
            self.user = user
            self.device = device
            self.entryKey = entryKey
            self.status = status
            self.link = link
            self.isSlow = isSlow
            self.clockOffset = clockOffset
            self.pendingWrites = pendingWrites
            self.deadLetters = deadLetters
            self.credentialExpired = credentialExpired
        }
    }

    /// One simulated device's clock: what it was given and what its client measured.
    public struct DeviceClock: Sendable, Equatable {
        /// `user/device`.
        public var label: String
        /// The offset it was given (ahead of the machine's clock when positive).
        public var injectedOffset: Duration
        /// Its client's estimate of server time minus local time, once measured.
        public var estimatedOffset: Duration?

        /// Makes a device clock.
        public init(label: String, injectedOffset: Duration, estimatedOffset: Duration? = nil) {
            self.label = label
            self.injectedOffset = injectedOffset
            self.estimatedOffset = estimatedOffset
        }
    }

    /// What the dashboard may do to the server it watches, and as whom.
    public struct Access: Sendable, Equatable {
        /// Who the watcher is signed in as, when it is not the lab's own emulator token.
        public var identity: String?
        /// Whether nothing is written (a database not on this machine, without `--device`).
        public var isReadOnly = false
        /// Whether the server is on this machine, or is the emulator.
        public var isLocal = true
        /// Whether this device's link stands between it and the server (it cannot, over TLS).
        public var linkInPath = true

        /// Full access to a local server, with the lab's own tokens.
        public init(identity: String? = nil, isReadOnly: Bool = false, isLocal: Bool = true, linkInPath: Bool = true) {
            self.identity = identity
            self.isReadOnly = isReadOnly
            self.isLocal = isLocal
            self.linkInPath = linkInPath
        }
    }

    /// When it was taken (the machine's clock).
    public var takenAt: UnixTime
    /// The server, for the header (`embedded 127.0.0.1:41234 ns=presencetop`).
    public var server: String
    /// The server's heartbeat timeout, when known (embedded).
    public var heartbeatTimeout: Duration?
    /// This device, if the simulation has one.
    public var thisDevice: ThisDevice?
    /// Everyone's presence as the server has it, sorted by user id.
    public var users: PresenceList
    /// For each connection entry key whose session the server's table shows: how long since the
    /// server last heard from that connection (embedded only).
    public var silence: [String: Duration]
    /// Which entry keys are this device's.
    public var ownEntryKeys: Set<String>
    /// Every simulated device's clock.
    public var deviceClocks: [DeviceClock]
    /// Whether the server is known to enforce the presence rules (the embedded one does; another
    /// server's rules are its own, and may be none).
    public var enforcesPresenceRules = false
    /// What feeds ``users``: the watcher's connection, whether its list has loaded, and a refusal.
    public var usersFeed = UsersFeed()
    /// How long a connection may go without hearing from the server before what it fed counts
    /// as stale: the server's heartbeat timeout, and never less than three pings.
    public var staleAfter: Duration = .seconds(15)
    /// What the dashboard may do, and as whom.
    public var access = Access()
    /// Each watched database's feed, in `--url` order, when several are watched as one directory
    /// (the first is ``usersFeed``'s); empty when one is.
    public var feeds: [WatchedFeed] = []
    /// Whether any watched database's layout lists connections (the status layout does not:
    /// with no users yet, its count of connections is not 0 but none).
    public var layoutsListConnections = true

    /// Makes a snapshot.
    public init(
        takenAt: UnixTime, server: String, heartbeatTimeout: Duration? = nil, thisDevice: ThisDevice? = nil,
        users: PresenceList = [], silence: [String: Duration] = [:], ownEntryKeys: Set<String> = [],
        deviceClocks: [DeviceClock] = []
    ) {
        self.takenAt = takenAt
        self.server = server
        self.heartbeatTimeout = heartbeatTimeout
        self.thisDevice = thisDevice
        self.users = users
        self.silence = silence
        self.ownEntryKeys = ownEntryKeys
        self.deviceClocks = deviceClocks
    }

    /// When the server last confirmed what a connection with `status` fed (its local clock), if
    /// that is stale at `now` (the same clock): `.some(nil)` when it never heard anything, nil
    /// while it is live.
    public func staleSince(_ status: ConnectionStatus, now: UnixTime) -> UnixTime?? {
        guard status.phase.isConnected, let heard = status.lastHeardAt else { return .some(status.lastHeardAt) }
        return now - heard > staleAfter ? .some(heard) : nil
    }

    /// The watched databases whose feed is stale at `now`, one bit each (bit i: ``feeds``[i]).
    public func staleFeeds(now: UnixTime) -> UInt64 {
        var mask: UInt64 = 0
        for (index, feed) in feeds.prefix(64).enumerated() where staleSince(feed.status, now: now) != nil {
            mask |= 1 << UInt64(index)
        }
        return mask
    }

    /// Whether the server has not heard from the connection with this entry key for over half its
    /// heartbeat timeout: it may be gone without having said so (a blackhole).
    public func isSuspect(entryKey: String) -> Bool {
        guard let silence = silence[entryKey], let timeout = heartbeatTimeout else { return false }
        return silence * 2 > timeout
    }

    /// The server's time now as this device estimates it (its clock plus the measured skew), or
    /// the machine's clock when there is no estimate.
    public var serverTimeEstimate: UnixTime {
        guard let device = thisDevice else { return takenAt }
        return takenAt + device.clockOffset + (device.status.clockSkew?.offset ?? device.status.serverTimeOffset)
    }

    /// This device's clock now: the machine's when the snapshot was taken, plus its offset.
    public var deviceNow: UnixTime { takenAt + (thisDevice?.clockOffset ?? .zero) }
}
