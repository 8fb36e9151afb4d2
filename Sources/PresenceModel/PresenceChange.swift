import RTDBCore

/// One change between two views of everyone's presence, as a timeline shows it.
public enum PresenceChange: Sendable, Equatable, CustomStringConvertible {
    /// A user with no connection got one.
    case userOnline(user: String)
    /// A user's last connection went; `lastOnline` is what the tree says now.
    case userOffline(user: String, lastOnline: UnixTime?)
    /// A device's connection entry appeared; `connections` counts the user's entries now.
    case deviceConnected(user: String, device: String?, connections: Int)
    /// A device's connection entry went.
    case deviceDisconnected(user: String, device: String?, connections: Int)

    /// The changes from `old` to `new`, user by user (in id order): entries that went, entries
    /// that came, then the user's own change of state.
    ///
    /// Users are told apart by their ids' UTF-16 code units, as Firebase tells keys apart (`é` and
    /// `e` with U+0301 are two users), and listed in that order. The lists are compared where they
    /// differ only (see ``PresenceList/changes(from:)``), so a change costs the same among ten
    /// users as among a million.
    public static func between(_ old: PresenceList, _ new: PresenceList) -> [PresenceChange] {
        between(new.changes(from: old))
    }

    /// The changes of the users in `changed` (see ``PresenceList/changes(from:)``).
    public static func between(_ changed: [RankedTree<UserPresence>.Change]) -> [PresenceChange] {
        var changes: [PresenceChange] = []
        for change in changed {
            guard let id = (change.new ?? change.old)?.id else { continue }
            changes += between(change.old ?? UserPresence(id: id), change.new ?? UserPresence(id: id))
        }
        return changes
    }

    /// The changes of one user, from `was` to `now` (the same user).
    public static func between(_ was: UserPresence, _ now: UserPresence) -> [PresenceChange] {
        var changes: [PresenceChange] = []
        let id = now.id
        // Sets of ids only where both lists have some (a first list's users have none before).
        let nowIDs = was.connections.isEmpty ? [] : Set(now.connections.map { CodeUnitString($0.id) })
        let wasIDs = now.connections.isEmpty ? [] : Set(was.connections.map { CodeUnitString($0.id) })
        for gone in was.connections where !nowIDs.contains(CodeUnitString(gone.id)) {
            changes.append(.deviceDisconnected(user: id, device: gone.device, connections: now.connections.count))
        }
        for came in now.connections where !wasIDs.contains(CodeUnitString(came.id)) {
            changes.append(.deviceConnected(user: id, device: came.device, connections: now.connections.count))
        }
        if !was.isOnline, now.isOnline { changes.append(.userOnline(user: id)) }
        if was.isOnline, !now.isOnline { changes.append(.userOffline(user: id, lastOnline: now.lastOnline)) }
        return changes
    }

    /// For example `morgan/phone connected (2 connections)` or `morgan offline`.
    public var description: String {
        switch self {
        case .userOnline(let user): "\(user) online"
        case .userOffline(let user, _): "\(user) offline"
        case .deviceConnected(let user, let device, let count):
            "\(device.map { "\(user)/\($0)" } ?? user) connected (\(count) connection\(count == 1 ? "" : "s"))"
        case .deviceDisconnected(let user, let device, let count):
            "\(device.map { "\(user)/\($0)" } ?? user) disconnected (\(count) connection\(count == 1 ? "" : "s") left)"
        }
    }
}
