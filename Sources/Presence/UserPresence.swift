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

    /// Makes a user entry.
    public init(id: String, connections: [Connection] = [], lastOnline: UnixTime? = nil) {
        self.id = id
        self.connections = connections
        self.lastOnline = lastOnline
    }

    /// Whether any device is connected: the documented rule (an empty list means offline).
    public var isOnline: Bool { !connections.isEmpty }

    /// The users under a `users` node, sorted by id.
    ///
    /// Accepts the documentation's shape (`connections/<key>: true`) and the richer one
    /// presencetop's sessions write (`connections/<key>: {device, connectedAt}`); anything else
    /// under a user is ignored.
    public static func users(from json: JSONValue) -> [UserPresence] {
        guard let users = json.objectValue else { return [] }
        return users.map { id, user in
            let entries = user["connections"]?.objectValue ?? [:]
            let connections = entries.map { key, entry in
                Connection(
                    id: key.string, device: entry["device"]?.stringValue,
                    // The documentation's `true` entries say nothing more; their push id says when.
                    connectedAt: entry["connectedAt"]?.intValue.map(UnixTime.init(millisecondsSince1970:))
                        ?? PushIDGenerator.timestamp(of: key.string))
            }
            return UserPresence(
                id: id.string,
                connections: connections.sorted {
                    ($0.connectedAt ?? .epoch, CodeUnitString($0.id)) < (
                        $1.connectedAt ?? .epoch, CodeUnitString($1.id)
                    )
                },
                lastOnline: user["lastOnline"]?.intValue.map(UnixTime.init(millisecondsSince1970:)))
        }.sorted { UTF16Order.lessThan($0.id, $1.id) }
    }
}
