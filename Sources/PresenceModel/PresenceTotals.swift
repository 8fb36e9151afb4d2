/// What a list of users adds up to: users, users online, connections, and how many of the users
/// fit a layout that lists connections (the status layout states online or offline and lists
/// none, so its users count no connections).
///
/// Kept change by change (a user counted out as they were, in as they are), so a total over a
/// million users costs what the change costs.
public struct PresenceTotals: Sendable, Equatable {
    /// Users.
    public var users = 0
    /// Users online.
    public var online = 0
    /// Connections in all.
    public var connections = 0
    /// Users whose layout lists their connections.
    public var listingConnections = 0
    /// Entries that fit no layout.
    public var unfit = 0

    /// No users.
    public init() {}

    /// The totals of `users`, counted one by one.
    public init(_ users: some Sequence<UserPresence>) {
        for user in users { count(user, 1) }
    }

    /// Counts `user` in (`sign` 1) or out (-1).
    public mutating func count(_ user: UserPresence, _ sign: Int) {
        users += sign
        connections += sign * user.connections.count
        if user.isOnline { online += sign }
        if user.problem != nil {
            unfit += sign
        } else if user.reportedOnline == nil {
            listingConnections += sign
        }
    }

    /// Connections in all, or nil when users are listed and none of them in a layout that lists
    /// connections (a count of 0 there would be a claim the layout cannot make).
    public var countedConnections: Int? { listingConnections > 0 || users == 0 ? connections : nil }
}
