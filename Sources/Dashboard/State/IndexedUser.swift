import PresenceModel

/// What the index keeps of a user at a slot: enough to order, filter and count them; a row
/// reads the rest from the list (``IndexedUsers``).
///
/// Thirty-two bytes against a user's eighty-eight and the three order keys kept beside it
/// before: at a million users, most of what the index held.
struct IndexedUser: Sendable {
    /// The user's id.
    var id: String
    /// Their place in the order by when last online (``PresenceSort/key(of:)``).
    var lastOnlineKey: Int64
    /// What the totals count of them.
    var tally: PresenceTotals.Tally
    /// Whether a connection of theirs names its device: the filter then reads them from the
    /// list (most name none: the documentation's entries are `true`).
    var namesDevices: Bool

    /// What the index keeps of `user`.
    init(_ user: UserPresence) {
        id = user.id
        // Online counts as now (first); never online last. Bits flipped (-x - 1, which cannot
        // overflow, as a time from the data may be any integer): the latest first.
        lastOnlineKey = user.isOnline ? Int64.min : (user.lastOnline.map { ~$0.millisecondsSince1970 } ?? Int64.max)
        tally = PresenceTotals.Tally(user)
        namesDevices = user.connections.contains { $0.device != nil }
    }

    /// A slot no user holds: no id, matching no filter.
    static let empty = IndexedUser(UserPresence(id: ""))
}
