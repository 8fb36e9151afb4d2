import RTDBCore

/// One user as the presence tree shows them: their live connections and when they were last
/// online.
public struct UserPresence: Sendable, Equatable, Identifiable {
    /// One device's connection, as its session wrote it.
    public struct Connection: Sendable, Equatable, Identifiable {
        /// The connection's key under `users/<id>/connections` (a push id).
        public var id: String
        /// The device's name, when the session gave one.
        public var device: String?
        /// When the server accepted the connection entry (server time), when known.
        public var connectedAt: UnixTime?

        /// Makes a connection entry.
        public init(id: String, device: String? = nil, connectedAt: UnixTime? = nil) {
            self.id = id
            self.device = device
            self.connectedAt = connectedAt
        }
    }

    /// The user's id (their key under `users`).
    public var id: String
    /// Live connections, oldest first.
    public var connections: [Connection]
    /// The server time of the user's last disconnect, if they have one.
    public var lastOnline: UnixTime?
    /// Online or not as a status-node layout states it, which lists no connections (nil: the
    /// connections say).
    public var reportedOnline: Bool?
    /// Since when a status-node layout says the user is online (server time), if it says.
    public var onlineSince: UnixTime?
    /// Why the entry fits its layout in no way, if it does not (it is listed, never dropped).
    public var problem: String?
    /// The watched databases that list this user, one bit each (bit i: the i-th `--url`); 0 when
    /// one database is watched.
    public var sources: UInt64 = 0
    /// Of ``sources``, the databases where the user is online.
    public var onlineSources: UInt64 = 0

    /// Makes a user entry.
    public init(id: String, connections: [Connection] = [], lastOnline: UnixTime? = nil, problem: String? = nil) {
        self.id = id
        self.connections = connections
        self.lastOnline = lastOnline
        self.problem = problem
    }

    /// Whether any device is connected: the documented rule (an empty list means offline).
    public var isOnline: Bool { reportedOnline ?? !connections.isEmpty }

    /// The users under a `users` node in the documented layout, sorted by id.
    public static func users(from json: JSONValue) -> [UserPresence] {
        PresenceLayout.documented.users(from: json)
    }
}
