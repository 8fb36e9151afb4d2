import RTDBCore

/// How an app keeps presence in its database: which children of a user's node say what.
///
/// ``connections(connections:lastOnline:)`` is Firebase's documented layout, one entry per
/// connection (`<root>/<uid>/connections/<push id>`, `<root>/<uid>/lastOnline`); ``status(state:online:changed:)``
/// the other one Firebase documents and many apps copied, one status per user
/// (`/status/<uid>` = `{state: "online" | "offline", last_changed: <server timestamp>}`).
public enum PresenceLayout: Sendable, Equatable, CustomStringConvertible {
    /// One entry per connection under `connections`, the last disconnect's time in `lastOnline`.
    case connections(connections: String = "connections", lastOnline: String = "lastOnline")
    /// One status per user: `state` equal to `online` when online, the time of the last change
    /// in `changed`.
    case status(state: String = "state", online: String = "online", changed: String = "last_changed")

    /// The documented layout (the default).
    public static let documented = PresenceLayout.connections()
    /// The status-node layout with Firebase's names.
    public static let statusNodes = PresenceLayout.status()

    /// Whether its entries list a user's connections (the status layout states online or
    /// offline and lists none).
    public var listsConnections: Bool {
        if case .connections = self { return true }
        return false
    }

    /// The root its users live under, by default.
    public var defaultRoot: String {
        switch self {
        case .connections: "users"
        case .status: "status"
        }
    }

    /// `connections` or `status`, with any names that differ from Firebase's.
    public var description: String {
        switch self {
        case .connections(let connections, let lastOnline):
            self == .documented ? "connections" : "connections (\(connections), \(lastOnline))"
        case .status(let state, let online, let changed):
            self == .statusNodes ? "status" : "status (\(state) = \(online), \(changed))"
        }
    }

    /// The users under the root, sorted by id (UTF-16 order, as Firebase orders keys).
    ///
    /// An entry that fits the layout in no way (not an object; a child of the wrong kind) is
    /// kept, with ``UserPresence/problem`` saying why, never dropped.
    public func users(from json: JSONValue) -> [UserPresence] {
        guard let users = json.objectValue else { return [] }
        return users.map { key, value in user(id: key.string, from: value) }.sorted {
            UTF16Order.lessThan($0.id, $1.id)
        }
    }

    /// The user `id` whose entry under the root is `value` (JSON, or the client engine's node
    /// read in place); an entry that fits the layout in no way is kept, with
    /// ``UserPresence/problem`` saying why.
    public func user(id: String, from value: some PresenceEntry) -> UserPresence {
        guard value.isObject else {
            return UserPresence(id: id, problem: "not an object (\(value.kind))")
        }
        switch self {
        case .connections(let connectionsChild, let lastOnlineChild):
            var user = UserPresence(id: id)
            if let connections = value.member(connectionsChild) {
                if let entries = connections.members {
                    user.connections = entries.map { key, entry in
                        UserPresence.Connection(
                            id: key, device: entry.member("device")?.text,
                            // The documentation's `true` entries say nothing more; their push id says when.
                            connectedAt: entry.member("connectedAt")?.integer.map(UnixTime.init(millisecondsSince1970:))
                                ?? PushIDGenerator.timestamp(of: key))
                    }.sorted {
                        ($0.connectedAt ?? .epoch, CodeUnitString($0.id)) < (
                            $1.connectedAt ?? .epoch, CodeUnitString($1.id)
                        )
                    }
                } else {
                    user.problem = "\(connectionsChild) is \(connections.kind), not an object of connections"
                }
            }
            if let time = value.member(lastOnlineChild) {
                if let milliseconds = time.integer {
                    user.lastOnline = UnixTime(millisecondsSince1970: milliseconds)
                } else {
                    user.problem = user.problem ?? "\(lastOnlineChild) is \(time.kind), not a time"
                }
            }
            return user
        case .status(let stateChild, let onlineValue, let changedChild):
            var user = UserPresence(id: id)
            guard let state = value.member(stateChild)?.text else {
                user.problem = "no \(stateChild) string"
                return user
            }
            let online = CodeUnitString.equal(state, onlineValue)
            user.reportedOnline = online
            let changed = value.member(changedChild)?.integer.map(UnixTime.init(millisecondsSince1970:))
            if online { user.onlineSince = changed } else { user.lastOnline = changed }
            return user
        }
    }
}
