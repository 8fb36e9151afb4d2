import PresenceModel

/// What `presencetop watch` knows at one moment, as its summary lines and metrics give it:
/// everyone's totals, each watched database's connection, and this device's queue when it runs one.
public struct WatchFigures: Sendable, Equatable {
    /// One watched database's connection, as its watcher has it.
    public struct Database: Sendable, Equatable {
        /// The database (`127.0.0.1:9000 ns=a`).
        public var name: String
        /// The watcher's phase: `connected`, `stale` (connected, but nothing heard for longer
        /// than the server's heartbeat allows), `connecting`, `waiting` or `offline`.
        public var state: String
        /// Seconds since its watcher last heard from the server (nil: never).
        public var secondsSinceHeard: Double?
        /// The server's clock minus this machine's, in seconds, as the watcher measured it.
        public var clockSkewSeconds: Double
        /// Users it lists.
        public var users: Int
        /// Whether its first list has been read.
        public var listLoaded: Bool
        /// Why its server refused the list, if it did.
        public var refusal: String?
    }

    /// Users, users online, connections (over every database, merged).
    public var totals = PresenceTotals()
    /// Connections, where the layouts can count them (``PresenceTotals/countedConnections(layoutsListConnections:)``).
    public var connections: Int?
    /// Each watched database, in `--url` order.
    public var databases: [Database] = []
    /// This device's writes waiting for the server (nil: no device of its own).
    public var pendingWrites: Int?
    /// Their bytes.
    public var pendingBytes: Int?
    /// This device's writes the server has acknowledged since the watch began.
    public var acknowledgedWrites = 0
    /// Presence lines written since the watch began.
    public var presenceChanges = 0
    /// Whether every database's first list has been read.
    public var listLoaded = false

    /// No figures yet.
    public init() {}
}
