import PresenceModel
import RTDBCore

/// Users in one of the index's orders: each position names a slot of the index's table, which
/// keeps the user's id; the user is read from the list the index was made from.
///
/// A view, made in O(1): it shares the list, the table and the order with the index (a later
/// change to the index copies what it changes, so the view keeps the version it was made from).
public struct IndexedUsers: Sendable, RandomAccessCollection {
    /// The list the index was made from.
    let source: PresenceList
    let table: ChunkedList<IndexedUser>
    let order: ChunkedList<Int32>
    /// The order the slots are in.
    public let sort: PresenceSort

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { order.count }

    /// The user at `position` in this order.
    public subscript(position: Int) -> UserPresence { user(at: Int(order[position])) }

    /// The user at `slot`, as the list has them (O(log n)).
    private func user(at slot: Int) -> UserPresence {
        let id = table[slot].id
        return source[id: id] ?? UserPresence(id: id)
    }

    /// The users in order.
    public var elements: [UserPresence] {
        var users: [UserPresence] = []
        users.reserveCapacity(order.count)
        order.forEachElement { users.append(user(at: Int($0))) }
        return users
    }

    /// The user with `user`'s id and its position, if listed here (a binary search by `user` as
    /// given: it must be the version the index holds).
    public func find(_ user: UserPresence) -> (rank: Int, element: UserPresence)? {
        let probe = IndexedUser(user)
        let rank = order.partitionPoint { sort.compare(table[Int($0)], probe) < 0 }
        guard rank < order.count else { return nil }
        let slot = Int(order[rank])
        return CodeUnitString.equal(table[slot].id, user.id) ? (rank, self.user(at: slot)) : nil
    }
}
