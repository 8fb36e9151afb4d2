import RTDBCore

extension PresenceList {
    /// A list of the users under `map` read in `layout`, keeping no copy of them when the map
    /// holds a first list as its text (``ChildrenMap/packedBase``); nil when it does not (or its
    /// order is not the ids': an integer key leads), for ``init(_:)`` to read them all.
    package init?(reading map: ChildrenMap, layout: PresenceLayout) {
        guard let children = map.packedBase, let base = PresenceBase(children, layout: layout) else { return nil }
        self.init()
        self.base = base
        // What changed in the map since its text came, as the list's own changes.
        var list = self
        map.forEachPackedChange { key, node in
            list = node.isEmpty ? list.removing(id: key.string) : list.updating(layout.user(id: key.string, from: node))
        }
        self = list
    }

    /// Whether the base holds `id` and it is hidden.
    func isHidden(_ id: String) -> Bool { hidden.find(id, by: UTF16Order.compare) != nil }

    /// Hides the base's user `id`, if the base lists them (a change kept in ``tree`` or a removal).
    mutating func hide(_ id: String) {
        guard let base, !isHidden(id), base.position(of: id) != nil else { return }
        hidden = hidden.inserting(id, weight: StableHash.of(id), by: UTF16Order.compare)
    }

    /// Whether two lists read the same base, or neither reads one.
    static func sameBase(_ a: PresenceBase?, _ b: PresenceBase?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isSame(as: b)
        default: false
        }
    }

    /// The user at merged `position` of a list on `base`: the largest base position whose user
    /// sorts at or before it found by a binary search (each step counts the hidden ids and the
    /// changed users before it), then either that user or one of ``tree``.
    func user(at position: Int, on base: PresenceBase) -> UserPresence {
        // How many listed users sort before the base's user at `place`.
        func before(_ place: Int) -> Int {
            let id = base.id(at: place)
            return place - hidden.rank(of: id, by: UTF16Order.compare)
                + tree.rank(of: UserPresence(id: id), by: Self.compare)
        }
        var (low, high) = (0, base.count)  // the first place past `position`
        while low < high {
            let middle = (low + high) / 2
            if before(middle) <= position { low = middle + 1 } else { high = middle }
        }
        let place = low - 1
        var listedBase = 0
        if place >= 0 {
            let id = base.id(at: place)
            let hiddenHere = isHidden(id)
            if !hiddenHere, before(place) == position { return base.user(at: place) }
            listedBase = place + 1 - hidden.rank(of: id, by: UTF16Order.compare) - (hiddenHere ? 1 : 0)
        }
        return tree[position - listedBase]
    }

    /// The users in id order, read from the base as they come.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// Steps through a list's users in id order: a base's users read one by one, merged with
    /// the users changed since.
    public struct Iterator: IteratorProtocol {
        private let base: PresenceBase?
        /// The base's hidden users' positions, in order.
        private let hiddenPositions: [Int]
        private var nextHidden = 0
        private var position = 0
        private var changed: RankedTree<UserPresence>.Cursor
        /// The next changed user and how many base users sort before them.
        private var pending: (user: UserPresence, rank: Int)?

        init(_ list: PresenceList) {
            base = list.base
            var positions: [Int] = []
            if let base = list.base {
                positions.reserveCapacity(list.hidden.count)
                list.hidden.forEachInOrder { id in base.position(of: id).map { positions.append($0) } }
            }
            hiddenPositions = positions
            changed = list.tree.cursor
        }

        /// The next user, or nil after the last.
        public mutating func next() -> UserPresence? {
            if pending == nil, let user = changed.next() { pending = (user, base?.rank(of: user.id) ?? 0) }
            if let base {
                let end = pending?.rank ?? base.count
                while position < end {
                    let place = position
                    position += 1
                    if nextHidden < hiddenPositions.count, hiddenPositions[nextHidden] == place {
                        nextHidden += 1
                        continue
                    }
                    return base.user(at: place)
                }
            }
            defer { pending = nil }
            return pending?.user
        }
    }
}
