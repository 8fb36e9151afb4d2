import PresenceModel
import RTDBCore

/// Users in one of the index's orders: each position names a slot of the index's table of users.
///
/// A view, made in O(1): it shares the table and the order with the index (a later change to the
/// index copies what it changes, so the view keeps the version it was made from).
public struct IndexedUsers: Sendable, RandomAccessCollection {
    let table: ChunkedList<UserPresence>
    let order: ChunkedList<Int32>
    /// The order the slots are in.
    public let sort: PresenceSort

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { order.count }

    /// The user at `position` in this order.
    public subscript(position: Int) -> UserPresence { table[Int(order[position])] }

    /// The users in order.
    public var elements: [UserPresence] {
        var users: [UserPresence] = []
        users.reserveCapacity(order.count)
        order.forEachElement { users.append(table[Int($0)]) }
        return users
    }

    /// The user with `user`'s id and its position, if listed here (a binary search by `user` as
    /// given: it must be the version the index holds).
    public func find(_ user: UserPresence) -> (rank: Int, element: UserPresence)? {
        let compare = sort.compare
        let rank = order.partitionPoint { compare(table[Int($0)], user) < 0 }
        guard rank < order.count else { return nil }
        let found = table[Int(order[rank])]
        return CodeUnitString.equal(found.id, user.id) ? (rank, found) : nil
    }
}
