import RTDBCore

/// Everyone's presence, sorted by user id in UTF-16 order (as Firebase orders keys): a persistent
/// list that is updated one user at a time and compared with an earlier version in time that
/// grows with what changed, not with the users listed.
///
/// Reading the n-th user, finding a user by id and replacing or removing one each take O(log n);
/// versions share everything an update did not touch, so a snapshot of a million users costs a
/// frame nothing to keep.
///
/// A list made on a first list's text (``init(reading:layout:)``) keeps no copy of its users: it
/// reads each from the engine's packed children when asked, and keeps only what changed since
/// beside them (the users added or changed, the ids hidden), as the engine's map does.
public struct PresenceList: Sendable, RandomAccessCollection, ExpressibleByArrayLiteral, Equatable {
    /// Every user, for a list made of users; on a base, the users added or changed since.
    private(set) var tree: RankedTree<UserPresence>
    /// The first list the users are read from, if the list was made on one.
    var base: PresenceBase?
    /// The ids of the base's users that are gone or replaced by one in ``tree``.
    var hidden = RankedTree<String>()

    /// The empty list.
    public init() { tree = RankedTree() }

    /// A list of `users` in any order; of users with one id (code unit for code unit) the last is
    /// kept.
    public init(_ users: some Sequence<UserPresence>) {
        var sorted = Array(users)
        // Users read from the engine's tree come in key order, which is UTF-16 order but for
        // integer keys: a sort only when they are not in order already. Stable, so that of users
        // with one id the last stays last.
        let inOrder = sorted.indices.dropFirst().allSatisfy { UTF16Order.compare(sorted[$0 - 1].id, sorted[$0].id) < 0 }
        if !inOrder { sorted.sort { UTF16Order.lessThan($0.id, $1.id) } }
        var kept: [UserPresence] = []
        kept.reserveCapacity(sorted.count)
        for user in sorted {
            if let last = kept.last, CodeUnitString.equal(last.id, user.id) {
                kept[kept.count - 1] = user
            } else {
                kept.append(user)
            }
        }
        tree = RankedTree(sorted: kept, weight: Self.weight)
    }

    /// A list of these users.
    public init(arrayLiteral users: UserPresence...) { self.init(users) }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { tree.count + (base?.count ?? 0) - hidden.count }
    /// The user at `position` in id order.
    public subscript(position: Int) -> UserPresence {
        guard let base else { return tree[position] }
        return user(at: position, on: base)
    }

    /// The user with this id (code unit for code unit), if listed.
    public subscript(id id: String) -> UserPresence? {
        if let changed = tree.find(UserPresence(id: id), by: Self.compare)?.element { return changed }
        guard let base, let position = base.position(of: id), !isHidden(id) else { return nil }
        return base.user(at: position)
    }

    /// The list with `user` in place of any user with its id.
    public func updating(_ user: UserPresence) -> PresenceList {
        var list = self
        list.tree = tree.inserting(user, weight: Self.weight(user), by: Self.compare)
        list.hide(user.id)
        return list
    }

    /// The list without the user with this id.
    public func removing(id: String) -> PresenceList {
        var list = self
        list.tree = tree.removing(UserPresence(id: id), by: Self.compare)
        list.hide(id)
        return list
    }

    /// Whether both are the same version (not merely the same users): O(1).
    public func isSameVersion(as other: PresenceList) -> Bool {
        tree.isSameVersion(as: other.tree) && hidden.isSameVersion(as: other.hidden) && Self.sameBase(base, other.base)
    }

    /// Calls `body` with each user in id order (faster than iterating by position).
    public func forEachUser(_ body: (UserPresence) throws -> Void) rethrows {
        guard base != nil else { return try tree.forEachInOrder(body) }
        var users = makeIterator()
        while let user = users.next() { try body(user) }
    }

    /// The users that differ from `old`: before (nil: new) and after (nil: gone), in id order.
    ///
    /// Walks only where the two versions differ, when one was made from the other.
    public func changes(from old: PresenceList) -> [RankedTree<UserPresence>.Change] {
        var changes: [RankedTree<UserPresence>.Change] = []
        forEachChange(from: old) { change in
            changes.append(change)
            return true
        }
        return changes
    }

    /// Calls `body` with each user that differs from `old` (as ``changes(from:)`` lists them)
    /// until it returns false; false when it was stopped.
    @discardableResult
    public func forEachChange(
        from old: PresenceList, _ body: (RankedTree<UserPresence>.Change) -> Bool
    ) -> Bool {
        guard Self.sameBase(base, old.base) else { return forEachChangeWalked(from: old, body) }
        guard base != nil else { return tree.forEachChange(from: old.tree, by: Self.compare, same: ==, body) }
        return forEachChangeOverBase(from: old, body)
    }

    /// The users that differ from `old`, or nil when more than `limit` do (found without
    /// gathering them all: a first list of a million is not worth listing to be told so).
    public func changes(from old: PresenceList, atMost limit: Int) -> [RankedTree<UserPresence>.Change]? {
        var changes: [RankedTree<UserPresence>.Change] = []
        let finished = forEachChange(from: old) { change in
            changes.append(change)
            return changes.count <= limit
        }
        return finished ? changes : nil
    }

    /// Whether both list the same users, in the same state.
    public static func == (lhs: PresenceList, rhs: PresenceList) -> Bool {
        lhs.isSameVersion(as: rhs) || (lhs.count == rhs.count && lhs.changes(from: rhs).isEmpty)
    }

    /// Users by their ids' UTF-16 code units.
    static func compare(_ a: UserPresence, _ b: UserPresence) -> Int { UTF16Order.compare(a.id, b.id) }

    /// A user's weight in the tree: a hash of the id's bytes (FNV-1a, then a 64-bit finaliser),
    /// the same in every process, so the same users always make the same tree.
    static func weight(_ user: UserPresence) -> UInt64 { stableHash(user.id) }

    /// A hash of `string` that does not change between processes (``StableHash``).
    public static func stableHash(_ string: String) -> UInt64 { StableHash.of(string) }
}
