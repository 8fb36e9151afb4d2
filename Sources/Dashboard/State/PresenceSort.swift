import LabModel
import PresenceModel
import RTDBCore

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

    /// Whether `a` is listed before `b`.
    func orders(_ a: UserPresence, before b: UserPresence) -> Bool {
        switch self {
        case .name:
            break
        case .state:
            if a.isOnline != b.isOnline { return a.isOnline }
        case .connections:
            if a.connections.count != b.connections.count { return a.connections.count > b.connections.count }
        case .lastOnline:
            let left = a.isOnline ? Int64.max : (a.lastOnline?.millisecondsSince1970 ?? Int64.min)
            let right = b.isOnline ? Int64.max : (b.lastOnline?.millisecondsSince1970 ?? Int64.min)
            if left != right { return left > right }
        }
        return Format.naturalLess(a.id, b.id)
    }

    /// The user's place in this order before names are compared, as an integer (smaller first):
    /// what ``orders(_:before:)`` decides before it falls back to the name.
    func key(of user: UserPresence) -> Int64 {
        switch self {
        case .name: 0
        case .state: user.isOnline ? 0 : 1
        case .connections: -Int64(user.connections.count)
        case .lastOnline:
            // Online counts as now (first); never online last. Bits flipped (-x - 1, which
            // cannot overflow, as a time from the data may be any integer): the latest first.
            user.isOnline ? Int64.min : (user.lastOnline.map { ~$0.millisecondsSince1970 } ?? Int64.max)
        }
    }

    /// A three-way comparison in this order, total over users with different ids (code units
    /// break what the order leaves equal).
    var comparison: RankedTree<UserPresence>.Comparison {
        { a, b in
            if orders(a, before: b) { return -1 }
            if orders(b, before: a) { return 1 }
            return UTF16Order.compare(a.id, b.id)
        }
    }

    /// The next (or previous) order, wrapping around.
    func moved(by step: Int) -> PresenceSort {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[((index + step) % all.count + all.count) % all.count]
    }
}
