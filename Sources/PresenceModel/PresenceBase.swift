import RTDBCore

/// Users read on demand from the text of a first list (``PackedChildren``): the directory's list
/// of a million users kept as the engine already keeps them, with no copy made of each.
///
/// Each user is read through the layout when asked for (a few fields found in their text);
/// positions are the packed children's, which are in UTF-16 order of the ids when no id is an
/// integer (``init(_:layout:)`` refuses the rest: Firebase puts integer keys first).
struct PresenceBase: Sendable {
    /// The children, as the engine keeps them.
    let children: PackedChildren
    /// How each child reads as a user.
    let layout: PresenceLayout

    /// A base over `children`, or nil when their key order is not the ids' UTF-16 order (an
    /// integer key leads: integer keys sort first, by value) or there are none.
    init?(_ children: PackedChildren, layout: PresenceLayout) {
        guard children.count > 0, children.key(at: 0).intValue == nil else { return nil }
        self.children = children
        self.layout = layout
    }

    /// The number of users.
    var count: Int { children.count }

    /// The id of the user at `position`.
    func id(at position: Int) -> String { children.key(at: position).string }

    /// The user at `position`, read through the layout.
    func user(at position: Int) -> UserPresence {
        layout.user(id: id(at: position), from: children.value(at: position))
    }

    /// The position of the user `id` (code unit for code unit), if listed.
    func position(of id: String) -> Int? {
        let position = rank(of: id)
        guard position < count else { return nil }
        return compare(id, toIDAt: position) == 0 ? position : nil
    }

    /// `id` compared with the id at `position` in UTF-16 order, read where it lies (no string made
    /// for each step of a search).
    private func compare(_ id: String, toIDAt position: Int) -> Int {
        children.withKeyBytes(at: position) { key in ByteScan.withBytes(of: id) { UTF16Order.compare($0, key) } }
    }

    /// How many users' ids sort before `id` in UTF-16 order (any id: one that reads as an
    /// integer key is placed as a string, as the list places it).
    func rank(of id: String) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if compare(id, toIDAt: middle) > 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether both read the same text the same way.
    func isSame(as other: PresenceBase) -> Bool { children === other.children && layout == other.layout }
}
