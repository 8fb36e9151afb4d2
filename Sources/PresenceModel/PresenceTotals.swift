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
    public mutating func count(_ user: UserPresence, _ sign: Int) { count(Tally(user), sign) }

    /// Counts a user in (`sign` 1) or out (-1) by their ``Tally``.
    public mutating func count(_ tally: Tally, _ sign: Int) {
        users += sign
        connections += sign * tally.connections
        if tally.isOnline { online += sign }
        if tally.isUnfit {
            unfit += sign
        } else if tally.listsConnections {
            listingConnections += sign
        }
    }

    /// Connections in all, or nil where no count is true: no user is in a layout that lists
    /// connections, and either some users are listed or the layouts watched list none (`0
    /// connections` would be a claim the status layout cannot make).
    ///
    /// - Parameter layoutsListConnections: Whether any layout watched lists connections.
    public func countedConnections(layoutsListConnections: Bool = true) -> Int? {
        if listingConnections > 0 { return connections }
        return users == 0 && layoutsListConnections ? 0 : nil
    }
}
