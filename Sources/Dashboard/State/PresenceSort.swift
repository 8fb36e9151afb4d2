import PresenceModel
import RTDBCore
import WatchModel

/// How the presence list is ordered (`<` and `>` move between these, as in htop).
public enum PresenceSort: String, Sendable, CaseIterable {
    /// By user id, as people read names (`user9` before `user50`).
    case name
    /// Online first, then by name.
    case state
    /// Most connections first, then by name.
    case connections
    /// Most recently online first (online users count as now), then by name.
    case lastOnline = "last online"

    /// A three-way comparison in this order: by the order's integer key (``key(of:)``), then by
    /// name as people read names (`user9` before `user50`), then by code units, so total over
    /// users with different ids.
    func compare(_ a: IndexedUser, _ b: IndexedUser) -> Int {
        let (left, right) = (key(of: a), key(of: b))
        if left != right { return left < right ? -1 : 1 }
        return Format.naturalCompare(a.id, b.id)
    }

    /// ``compare(_:_:)`` of two users.
    func compare(_ a: UserPresence, _ b: UserPresence) -> Int { compare(IndexedUser(a), IndexedUser(b)) }

    /// The user's place in this order before names are compared, as an integer (smaller first):
    /// online first, most connections first, the latest online first.
    func key(of user: IndexedUser) -> Int64 {
        switch self {
        case .name: 0
        case .state: user.tally.isOnline ? 0 : 1
        case .connections: -Int64(user.tally.connections)
        case .lastOnline: Int64(user.lastOnlineKey)
        }
    }

    /// ``key(of:)`` of a user.
    func key(of user: UserPresence) -> Int64 { key(of: IndexedUser(user)) }

    /// The orders with a key (every order but by name).
    static let keyed: [PresenceSort] = allCases.filter { $0 != .name }

    /// The order's place among all of them (`<` and `>` move through them in this order).
    var position: Int {
        switch self {
        case .name: 0
        case .state: 1
        case .connections: 2
        case .lastOnline: 3
        }
    }

    /// The next (or previous) order, wrapping around.
    func moved(by step: Int) -> PresenceSort {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[((index + step) % all.count + all.count) % all.count]
    }
}
