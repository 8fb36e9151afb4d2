import PresenceModel
import RTDBCore

/// The users in every order `<` and `>` choose, those the filter lets through, and their counts,
/// kept change by change: a presence change among a million users costs a few binary searches,
/// and a new order costs nothing, for every order is kept all along.
///
/// Each user is one entry of a table of slots; each order is a ``ChunkedList`` of slots (four
/// bytes a user), as are the users the filter lets through. Each version of the list is compared
/// with the one the index was made from where they differ only (``PresenceList/changes(from:)``);
/// a first list is one sort by name, the other orders made from it by their integer keys.
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
        mutating func count(_ user: UserPresence, _ sign: Int) { count(IndexedUser(user), sign) }

        /// Counts the user at a slot in (`sign` 1) or out (-1).
        mutating func count(_ user: IndexedUser, _ sign: Int) {
            totals.count(user.tally, sign)
            // Counting columns stops at 18 characters: no name column is wider.
            // A name takes no more columns than it has bytes: most need no measuring.
            if sign > 0, longestName < 18, user.id.utf8.count > longestName {
                longestName = max(longestName, CellGrid.columns(of: String(user.id.prefix(18))))
            }
        }
    }

    /// A version of the index: a new one whenever what it shows changes.
    final class Stamp: Sendable {}

    /// The list the index was made from.
    public private(set) var source = PresenceList()
    /// The order.
    public private(set) var sort = PresenceSort.name
    /// What the index keeps of every listed user, at their slot; a slot a user left holds an
    /// empty entry until reused.
    var table = ChunkedList<IndexedUser>()
    /// Slots no user holds.
    var freeSlots: [Int32] = []
    /// Every user's slot, in each order (by ``PresenceSort/position``).
    var orders = [ChunkedList<Int32>](repeating: ChunkedList(), count: PresenceSort.allCases.count)
    /// Counts over every user.
    public internal(set) var allCounts = Counts()
    /// The filter the shown users pass (as typed); nil: to be worked out.
    var filteredFor: String? = ""
    /// The slots of the users the filter lets through, in order; nil without a filter.
    var filtered: ChunkedList<Int32>?
    /// Counts over the shown users.
    public internal(set) var shownCounts = Counts()
    private var stamp = Stamp()

    /// An index of no users.
    public init() {}

    /// Every user, in order.
    public var all: IndexedUsers {
        IndexedUsers(source: source, table: table, order: orders[sort.position], sort: sort)
    }
    /// The users the filter lets through, in order (every user without a filter).
    public var shown: IndexedUsers {
        IndexedUsers(source: source, table: table, order: filtered ?? orders[sort.position], sort: sort)
    }

    /// Brings the index to `users` in `sort`, filtered by `filter`, doing only what changed.
    public mutating func update(to users: PresenceList, sort: PresenceSort, filter: String) {
        if isCurrent(for: users, sort: sort, filter: filter) { return }
        stamp = Stamp()
        if !users.isSameVersion(as: source) {
            // More changes than a quarter of the users: made anew (not gathered to be counted).
            if source.isEmpty || users.isEmpty {
                rebuild(users)
            } else if let changes = users.changes(from: source, atMost: max(64, users.count / 4)) {
                if changes.count > max(32, table.count / 1024) {
                    fold(batch: changes)
                } else {
                    for change in changes { fold(change) }
                }
            } else {
                rebuild(users)
            }
            source = users
        }
        if sort != self.sort {
            // The shown users are in the old order: worked out again below.
            (self.sort, filteredFor) = (sort, filteredFor == "" ? "" : nil)
        }
        refilter(filter)
    }

    /// Works out the shown users for `filter` if it is not the one they were worked out for.
    private mutating func refilter(_ filter: String) {
        if filter.isEmpty {
            (filtered, shownCounts, filteredFor) = (nil, allCounts, "")
            return
        }
        guard filter != filteredFor else { return }
        // A filter that extends the last one lets through a subset of what that one did.
        let narrows = filteredFor.map { !$0.isEmpty && filter.hasPrefix($0) } ?? false
        filteredFor = filter
        let needle = FilterNeedle(filter)
        let walked = narrows ? (filtered ?? orders[sort.position]) : orders[sort.position]
        var kept: [Int32] = []
        var counts = Counts()
        if walked.count < table.count / 8 {
            // Few to walk (a filter that narrows a narrow one): those alone, in order.
            for slot in walked where matches(table[Int(slot)], needle) { kept.append(slot) }
        } else {
            // Many: the table read straight through (a slot no user holds has no name and matches
            // nothing; a user the last filter left out cannot match one that extends it), the
            // users that match counted there, then the order walked for their slots.
            var matched = [Bool](repeating: false, count: table.count)
            var matches = 0
            // Read once: a method on `self` in the loop copied the index (its references
            // retained and released) for every user, seven times the scan's own cost.
            let source = self.source
            matched.withUnsafeMutableBufferPointer { matched in
                var slot = 0
                table.forEachChunk { users in
                    guard let first = users.baseAddress else { return }
                    for index in users.indices {
                        // Each field read where it lies: the user is not copied out.
                        let user = first + index
                        let (id, namesDevices) = (user.pointee.id, user.pointee.namesDevices)
                        if Self.matches(id: id, namesDevices: namesDevices, in: source, needle) {
                            matched[slot] = true
                            matches += 1
                            counts.count(user.pointee, 1)
                        }
                        slot += 1
                    }
                }
            }
            if matches == walked.count {
                // Every user walked matched (a first letter most ids share): the same slots and
                // counts.
                (filtered, shownCounts) = (walked, narrows ? shownCounts : allCounts)
                return
            }
            kept.reserveCapacity(matches)
            walked.forEachChunk { slots in
                for slot in slots where matched[Int(slot)] { kept.append(slot) }
            }
            (filtered, shownCounts) = (ChunkedList(kept), counts)
            return
        }
        for slot in kept { counts.count(table[Int(slot)], 1) }
        (filtered, shownCounts) = (ChunkedList(kept), counts)
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

    /// An index that holds no users and equals this version (and no other): what a frame
    /// already drawn keeps to compare with, so that it shares none of the tables.
    public var versionOnly: PresenceIndex {
        var mark = PresenceIndex()
        mark.stamp = stamp
        return mark
    }

    /// Whether both are the same version of the same work (equal indexes made apart compare
    /// unequal: the loop then draws once more, which is harmless).
    public static func == (lhs: PresenceIndex, rhs: PresenceIndex) -> Bool { lhs.stamp === rhs.stamp }

    /// Whether the filter lets `user` through: in their id or a device's name.
    static func matches(_ user: UserPresence, _ needle: FilterNeedle) -> Bool {
        needle.matches(user.id) || devicesMatch(user.connections, needle)
    }

    /// Whether the filter lets the user at a slot through (their devices read from ``source``).
    func matches(_ user: IndexedUser, _ needle: FilterNeedle) -> Bool {
        Self.matches(id: user.id, namesDevices: user.namesDevices, in: source, needle)
    }

    /// Whether the filter lets through the user `id`, reading their devices from `source` only
    /// when one has a name.
    static func matches(id: String, namesDevices: Bool, in source: PresenceList, _ needle: FilterNeedle) -> Bool {
        needle.matches(id) || namesDevices && Self.devicesMatch(source[id: id]?.connections ?? [], needle)
    }

    /// Whether the filter finds a device's name among `connections`.
    private static func devicesMatch(_ connections: [UserPresence.Connection], _ needle: FilterNeedle) -> Bool {
        connections.contains { needle.matches($0.device ?? "") }
    }
}
