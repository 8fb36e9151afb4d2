import PresenceModel

/// What the index keeps of a user at a slot: enough to order, filter and count them; a row
/// reads the rest from the list (``IndexedUsers``).
///
/// Twenty-four bytes against a user's eighty-eight and the three order keys kept beside it
/// before: at a million users, most of what the index held.
struct IndexedUser: Sendable {
    /// The user's id.
    var id: String
    /// Their place in the order by when last online (``PresenceSort/key(of:)``), to the second.
    var lastOnlineKey: Int32
    /// What the totals count of them.
    var tally: PresenceTotals.Tally

    /// Whether a connection of theirs names its device: the filter then reads them from the list.
    var namesDevices: Bool { tally.namesDevices }

    /// What the index keeps of `user`.
    init(_ user: UserPresence) {
        id = user.id
        // Online counts as now (first); never online last.
        lastOnlineKey =
            user.isOnline
            ? Int32.min : (user.lastOnline.map { Self.lastOnlineKey($0.millisecondsSince1970) } ?? Int32.max)
        tally = PresenceTotals.Tally(user)
    }

    /// The key of a user last online at `milliseconds` (any integer, from the data): the latest
    /// first, to the second (the screen says `5m ago`), between the keys of online and never; a
    /// time before 1970 or past 2106 sorts with the nearest second that has a key.
    static func lastOnlineKey(_ milliseconds: Int64) -> Int32 {
        // Whole seconds, rounded down: a second's milliseconds share a key.
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : -1 - (-1 - milliseconds) / 1000
        // Counted back from 2038, so that every second from 1970 into 2106 has a key of its own.
        let key = Int64(Int32.max) - 1 - seconds
        return Int32(min(max(key, Int64(Int32.min) + 1), Int64(Int32.max) - 1))
    }

    /// A slot no user holds: no id, matching no filter.
    static let empty = IndexedUser(UserPresence(id: ""))
}
