import PresenceModel
import RTDBCore

/// The users in the order chosen with < and >, those the filter lets through, and their counts,
/// kept change by change: a presence change among a million users costs a few tree steps, not a
/// sort of the million.
///
/// Each version of the list is compared with the one the index was made from where they differ
/// only (``PresenceList/changes(from:)``); a new order or a first list is one sort, a new filter
/// one walk of the users (a longer filter walks only those the shorter one let through).
public struct PresenceIndex: Sendable, Equatable {
    /// What the Presence pane's title and summary line count: the ``PresenceTotals`` (read
    /// through, `counts.online`) and the widest name.
    @dynamicMemberLookup
    public struct Counts: Sendable, Equatable {
        /// Users, online, connections.
        public var totals = PresenceTotals()
        /// The longest user id, in columns, up to 18 (the name column's width); the longest seen
        /// since the last full count (a name that went may still widen the column).
        public var longestName = 0

        /// One of ``totals``.
        public subscript(dynamicMember total: KeyPath<PresenceTotals, Int>) -> Int { totals[keyPath: total] }

        /// Counts `user` in (`sign` 1) or out (-1).
        mutating func count(_ user: UserPresence, _ sign: Int) {
            totals.count(user, sign)
            // Counting columns stops at 18 characters: no name column is wider.
            if sign > 0, longestName < 18 {
                longestName = max(longestName, CellGrid.columns(of: String(user.id.prefix(18))))
            }
        }
    }

    /// The list the index was made from.
    public private(set) var source = PresenceList()
    /// The order.
    public private(set) var sort = PresenceSort.name
    /// Every user, in order.
    public private(set) var all = RankedTree<UserPresence>()
    /// Every user by name, kept beside ``all`` while another order is chosen (a new order is
    /// then made from it: by its key first, names already in place); empty while the order is
    /// by name, where ``all`` is it.
    private var byName = RankedTree<UserPresence>()
    /// Counts over every user.
    public private(set) var allCounts = Counts()
    /// The filter the shown users pass (as typed); nil: to be worked out.
    private var filteredFor: String? = ""
    /// The users the filter lets through, in order (every user without a filter).
    public private(set) var shown = RankedTree<UserPresence>()
    /// Counts over the shown users.
    public private(set) var shownCounts = Counts()

    /// An index of no users.
    public init() {}

    /// Brings the index to `users` in `sort`, filtered by `filter`, doing only what changed.
    public mutating func update(to users: PresenceList, sort: PresenceSort, filter: String) {
        if sort != self.sort, users.isSameVersion(as: source) {
            reorder(sort)
        } else if sort != self.sort {
            rebuild(users, sort: sort)
        } else {
            let changes = users.changes(from: source)
            if changes.count > max(64, users.count / 4) {
                rebuild(users, sort: sort)
            } else if !changes.isEmpty {
                // The shown users stay those of the filter they were worked out for (a new
                // filter that narrows it then walks them alone).
                let needle = FilterNeedle(filteredFor ?? "")
                let filtered = !needle.isEmpty
                let compare = sort.comparison
                let keepsByName = sort != .name
                let byNameOrder = PresenceSort.name.comparison
                for change in changes {
                    if keepsByName {
                        if let old = change.old { byName = byName.removing(old, by: byNameOrder) }
                        if let new = change.new {
                            byName = byName.inserting(new, weight: PresenceList.stableHash(new.id), by: byNameOrder)
                        }
                    }
                    if let old = change.old {
                        all = all.removing(old, by: compare)
                        allCounts.count(old, -1)
                        if filtered, Self.matches(old, needle) {
                            shown = shown.removing(old, by: compare)
                            shownCounts.count(old, -1)
                        }
                    }
                    if let new = change.new {
                        let weight = PresenceList.stableHash(new.id)
                        all = all.inserting(new, weight: weight, by: compare)
                        allCounts.count(new, 1)
                        if filtered, Self.matches(new, needle) {
                            shown = shown.inserting(new, weight: weight, by: compare)
                            shownCounts.count(new, 1)
                        }
                    }
                }
            }
            source = users
        }
        refilter(filter)
    }

    /// Makes the index anew: one sort of every user by name, then the order made from it.
    private mutating func rebuild(_ users: PresenceList, sort: PresenceSort) {
        var sorted: [UserPresence] = []
        sorted.reserveCapacity(users.count)
        var counts = Counts()
        users.forEachUser { user in
            sorted.append(user)
            counts.count(user, 1)
        }
        // One comparison a step (the three-way one asks twice): the same order.
        sorted.sort { PresenceSort.name.orders($0, before: $1) }
        (source, allCounts) = (users, counts)
        (all, self.sort) = (RankedTree(sorted: sorted) { PresenceList.stableHash($0.id) }, .name)
        byName = RankedTree()
        reorder(sort)
        // The filter is worked out again below.
        filteredFor = nil
    }

    /// The same users in `sort`: made from the order by name, by each user's key first (an
    /// integer), the names' ranks breaking ties; no name is compared again.
    private mutating func reorder(_ sort: PresenceSort) {
        guard sort != self.sort else { return }
        let names = self.sort == .name ? all : byName
        (self.sort, filteredFor) = (sort, nil)
        guard sort != .name else {
            (all, byName) = (names, RankedTree())
            return
        }
        var users: [UserPresence] = []
        var keys: [(key: Int64, rank: Int32)] = []
        users.reserveCapacity(names.count)
        keys.reserveCapacity(names.count)
        names.forEachInOrder { user in
            keys.append((sort.key(of: user), Int32(truncatingIfNeeded: users.count)))
            users.append(user)
        }
        keys.sort { $0.key != $1.key ? $0.key < $1.key : $0.rank < $1.rank }
        let ordered = keys.map { users[Int($0.rank)] }
        (all, byName) = (RankedTree(sorted: ordered) { PresenceList.stableHash($0.id) }, names)
    }

    /// Works out the shown users for `filter` if it is not the one they were worked out for.
    private mutating func refilter(_ filter: String) {
        if filter.isEmpty {
            (shown, shownCounts, filteredFor) = (all, allCounts, "")
            return
        }
        guard filter != filteredFor else { return }
        // A filter that extends the last one lets through a subset of what that one did.
        let narrows = filteredFor.map { !$0.isEmpty && filter.hasPrefix($0) } ?? false
        filteredFor = filter
        let needle = FilterNeedle(filter)
        var kept: [UserPresence] = []
        var counts = Counts()
        (narrows ? shown : all).forEachInOrder { user in
            if Self.matches(user, needle) {
                kept.append(user)
                counts.count(user, 1)
            }
        }
        let walked = narrows ? shown : all
        if kept.count == walked.count {
            // Every user walked matched (a first letter most ids share): the same users, no new
            // tree; the counts are the walked ones'.
            (shown, shownCounts) = (walked, narrows ? shownCounts : allCounts)
        } else {
            shown = RankedTree(sorted: kept) { PresenceList.stableHash($0.id) }
            shownCounts = counts
        }
    }

    /// Whether the index is worked out for `users` in `sort` through `filter` (O(1)).
    public func isCurrent(for users: PresenceList, sort: PresenceSort, filter: String) -> Bool {
        source.isSameVersion(as: users) && sort == self.sort && filter == filteredFor
    }

    /// The index brought to `users`, `sort` and `filter` (itself when it is current).
    public func updated(to users: PresenceList, sort: PresenceSort, filter: String) -> PresenceIndex {
        if isCurrent(for: users, sort: sort, filter: filter) { return self }
        var index = self
        index.update(to: users, sort: sort, filter: filter)
        return index
    }

    /// Whether both are the same versions of the same work (equal indexes made apart compare
    /// unequal: the loop then draws once more, which is harmless).
    public static func == (lhs: PresenceIndex, rhs: PresenceIndex) -> Bool {
        lhs.source.isSameVersion(as: rhs.source) && lhs.sort == rhs.sort && lhs.filteredFor == rhs.filteredFor
            && lhs.all.isSameVersion(as: rhs.all) && lhs.shown.isSameVersion(as: rhs.shown)
    }

    /// Whether the filter lets `user` through: in their id or a device's name.
    static func matches(_ user: UserPresence, _ needle: FilterNeedle) -> Bool {
        needle.matches(user.id) || user.connections.contains { needle.matches($0.device ?? "") }
    }
}
