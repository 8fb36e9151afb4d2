import PresenceModel
import RTDBCore

extension PresenceIndex {
    /// The filter the shown slots are kept for, when one is (not while it is to be worked out).
    private var keptFilter: FilterNeedle? {
        guard let filteredFor, !filteredFor.isEmpty, filtered != nil else { return nil }
        return FilterNeedle(filteredFor)
    }

    /// Where `user` is, or goes, in `order` sorted by `sort` (a binary search).
    func place(of user: UserPresence, in order: ChunkedList<Int32>, _ sort: PresenceSort) -> Int {
        let probe = IndexedUser(user)
        return order.partitionPoint { sort.compare(table[Int($0)], probe) < 0 }
    }

    /// The slot of the listed user with `user`'s id, found in the order by name.
    func slot(of user: UserPresence) -> Int32? {
        let byName = orders[PresenceSort.name.position]
        let rank = place(of: user, in: byName, .name)
        guard rank < byName.count else { return nil }
        let slot = byName[rank]
        return CodeUnitString.equal(table[Int(slot)].id, user.id) ? slot : nil
    }

    /// Folds one user's change in: out of every order where they were, in where they are now.
    mutating func fold(_ change: RankedTree<UserPresence>.Change) {
        let needle = keptFilter
        var slot: Int32?
        if let old = change.old, let found = self.slot(of: old) {
            slot = found
            for sort in PresenceSort.allCases {
                orders[sort.position].remove(at: place(of: old, in: orders[sort.position], sort))
            }
            allCounts.count(old, -1)
            if let needle, Self.matches(old, needle), var shown = filtered {
                filtered = nil
                shown.remove(at: place(of: old, in: shown, sort))
                (filtered, shownCounts) = (shown, shownCounts.removing(old))
            }
        }
        guard let new = change.new else {
            if let slot { release(slot) }
            return
        }
        let taken = slot ?? takeSlot()
        put(new, at: taken)
        for sort in PresenceSort.allCases {
            orders[sort.position].insert(taken, at: place(of: new, in: orders[sort.position], sort))
        }
        allCounts.count(new, 1)
        if let needle, Self.matches(new, needle), var shown = filtered {
            filtered = nil
            shown.insert(taken, at: place(of: new, in: shown, sort))
            (filtered, shownCounts) = (shown, shownCounts.adding(new))
        }
    }

    /// Folds many changes in at once: the changed users taken out of the order by name and merged
    /// back in their new places in one walk, the other orders made anew from it (linear, no
    /// comparison).
    mutating func fold(batch changes: [RankedTree<UserPresence>.Change]) {
        let needle = keptFilter
        var moved = [Bool](repeating: false, count: table.count)
        var placed: [Int32] = []
        // Of those, the ones the filter lets through (judged by the user as they are now: the
        // list the index reads devices from is still the old one).
        var matching: [Int32] = []
        var shownCounts = self.shownCounts
        // Every changed user's slot found before any entry changes: the search reads the table.
        let found = changes.map { $0.old.flatMap(slot(of:)) }
        for (change, slot) in zip(changes, found) {
            if let old = change.old, let slot {
                moved[Int(slot)] = true
                allCounts.count(old, -1)
                if let needle, Self.matches(old, needle) { shownCounts = shownCounts.removing(old) }
            }
            guard let new = change.new else {
                if let slot { release(slot) }
                continue
            }
            let taken = slot ?? takeSlot()
            put(new, at: taken)
            placed.append(taken)
            allCounts.count(new, 1)
            if let needle, Self.matches(new, needle) {
                shownCounts = shownCounts.adding(new)
                matching.append(taken)
            }
        }
        // Each order merged (a radix sort of every user for each, as a first list has, took a
        // 10,000-user burst at a million users 300 ms); one whose key is the same for everyone
        // shares the order by name's chunks.
        let name = PresenceSort.name.position
        let table = self.table
        let byName = { (a: Int32, b: Int32) in Format.naturalCompare(table[Int(a)].id, table[Int(b)].id) }
        orders[name] = Self.merged(orders[name], without: moved, with: placed, byName)
        // The other orders compare each user's key, then their place by name: two integers, where
        // comparing names in each took most of a burst's frame.
        var nameRank = [Int32](repeating: 0, count: table.count)
        var rank: Int32 = 0
        orders[name].forEachElement { slot in
            nameRank[Int(slot)] = rank
            rank += 1
        }
        func byKey(_ sort: PresenceSort) -> (Int32, Int32) -> Int {
            { [nameRank] a, b in
                let (left, right) = (sort.key(of: table[Int(a)]), sort.key(of: table[Int(b)]))
                if left != right { return left < right ? -1 : 1 }
                let (rankA, rankB) = (nameRank[Int(a)], nameRank[Int(b)])
                return rankA == rankB ? 0 : (rankA < rankB ? -1 : 1)
            }
        }
        for sort in PresenceSort.keyed {
            orders[sort.position] =
                hasOneKey(sort)
                ? orders[name] : Self.merged(orders[sort.position], without: moved, with: placed, byKey(sort))
        }
        if needle != nil, let shown = filtered {
            let compare = sort == .name ? byName : byKey(sort)
            (filtered, self.shownCounts) = (Self.merged(shown, without: moved, with: matching, compare), shownCounts)
        }
    }

    /// `order` without the slots marked in `moved`, with `placed` merged in where the order's
    /// three-way comparison of two slots, `compare`, puts them.
    private static func merged(
        _ order: ChunkedList<Int32>, without moved: [Bool], with placed: [Int32], _ compare: (Int32, Int32) -> Int
    ) -> ChunkedList<Int32> {
        let incoming = placed.sorted { compare($0, $1) < 0 }
        var kept: [Int32] = []
        kept.reserveCapacity(order.count)
        for slot in order where !(Int(slot) < moved.count && moved[Int(slot)]) { kept.append(slot) }
        // Each incoming user's place by a binary search after the one before it: a few
        // comparisons each, not one for every user kept.
        var result: [Int32] = []
        result.reserveCapacity(kept.count + incoming.count)
        var low = 0
        for slot in incoming {
            var high = kept.count
            var place = low
            while place < high {
                let middle = (place + high) / 2
                if compare(kept[middle], slot) < 0 { place = middle + 1 } else { high = middle }
            }
            result.append(contentsOf: kept[low..<place])
            result.append(slot)
            low = place
        }
        result.append(contentsOf: kept[low...])
        return ChunkedList(result)
    }

    /// Whether every listed user has the same key in `sort` (a slot no user holds is passed by).
    private func hasOneKey(_ sort: PresenceSort) -> Bool {
        var first: Int64?
        var one = true
        table.forEachChunk { users in
            guard one else { return }
            for user in users where !user.id.isEmpty {
                let key = sort.key(of: user)
                guard let known = first else {
                    first = key
                    continue
                }
                if key != known {
                    one = false
                    return
                }
            }
        }
        return one
    }

    /// Makes every order but the one by name from it: a stable radix sort of the order by name
    /// by each order's key (read from the table in one walk, slot after slot).
    private mutating func remakeKeyedOrders() {
        let byName = orders[PresenceSort.name.position].elements
        let keyed = PresenceSort.keyed
        var slotKeys = [[Int64]](repeating: [], count: keyed.count)
        for index in keyed.indices { slotKeys[index].reserveCapacity(table.count) }
        table.forEachElement { user in
            for (index, sort) in keyed.enumerated() { slotKeys[index].append(sort.key(of: user)) }
        }
        for (index, sort) in keyed.enumerated() {
            let first = slotKeys[index].first
            if slotKeys[index].allSatisfy({ $0 == first }) {
                // One key for everyone (no connections in the status layout): the order by name,
                // its chunks shared until a change sets them apart.
                orders[sort.position] = orders[PresenceSort.name.position]
                continue
            }
            let keys = slotKeys[index].withUnsafeBufferPointer { slotKeys in byName.map { slotKeys[Int($0)] } }
            slotKeys[index] = []
            orders[sort.position] = ChunkedList(RadixOrder.stable(byName, keys: keys))
        }
    }

    /// Writes what the index keeps of `user` at `slot`.
    private mutating func put(_ user: UserPresence, at slot: Int32) { table[Int(slot)] = IndexedUser(user) }

    /// A slot for a new user.
    private mutating func takeSlot() -> Int32 {
        if let free = freeSlots.popLast() { return free }
        table.append(.empty)
        return Int32(table.count - 1)
    }

    /// Gives a slot back, its entry emptied (its strings let go).
    private mutating func release(_ slot: Int32) {
        table[Int(slot)] = .empty
        freeSlots.append(slot)
    }

    /// Makes the index anew from `users`: one sort by name (none when the list's order is
    /// already the one people read), each other order made from it by its integer key (a stable
    /// radix sort; no name compared again).
    mutating func rebuild(_ users: PresenceList) {
        // Made straight from the list as it is walked: no second copy of a million users.
        let table = ChunkedList(users.lazy.map(IndexedUser.init))
        var counts = Counts()
        var inOrder = true
        var previous: String?
        table.forEachElement { user in
            counts.count(user, 1)
            if inOrder, let previous, Format.naturalCompare(previous, user.id) >= 0 { inOrder = false }
            previous = user.id
        }
        var byName = (0..<Int32(truncatingIfNeeded: table.count)).map { $0 }
        // By name alone: the order's key is the same for everyone.
        if !inOrder { byName.sort { Format.naturalCompare(table[Int($0)].id, table[Int($1)].id) < 0 } }
        orders[PresenceSort.name.position] = ChunkedList(byName)
        (self.table, freeSlots, allCounts) = (table, [], counts)
        remakeKeyedOrders()
        // The filter is worked out again.
        (filtered, filteredFor) = (nil, filteredFor == "" ? "" : nil)
    }
}

extension PresenceIndex.Counts {
    /// These counts with `user` counted out.
    fileprivate func removing(_ user: UserPresence) -> Self {
        var counts = self
        counts.count(user, -1)
        return counts
    }

    /// These counts with `user` counted in.
    fileprivate func adding(_ user: UserPresence) -> Self {
        var counts = self
        counts.count(user, 1)
        return counts
    }
}
