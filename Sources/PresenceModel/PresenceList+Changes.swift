import RTDBCore

extension PresenceList {
    /// ``forEachChange(from:_:)`` of two versions on one base: the ids either changed (in ``tree``
    /// or ``hidden``), each user read before and after.
    func forEachChangeOverBase(from old: PresenceList, _ body: (RankedTree<UserPresence>.Change) -> Bool) -> Bool {
        var ids: [String] = []
        tree.forEachChange(from: old.tree, by: Self.compare, same: ==) { change in
            if let id = change.new?.id ?? change.old?.id { ids.append(id) }
            return true
        }
        let changedCount = ids.count
        // A hidden id is hidden alike in both: only its coming or going tells.
        let alike: (String, String) -> Bool = { _, _ in true }
        hidden.forEachChange(from: old.hidden, by: UTF16Order.compare, same: alike) { change in
            if let id = change.new ?? change.old { ids.append(id) }
            return true
        }
        // Both walks came in order: sorted again only when the second added to the first.
        if ids.count > changedCount, changedCount > 0 { ids.sort(by: UTF16Order.lessThan) }
        var last: String?
        for id in ids {
            if let last, CodeUnitString.equal(last, id) { continue }
            last = id
            let (before, after) = (old[id: id], self[id: id])
            if before != after, !body(RankedTree.Change(old: before, new: after)) { return false }
        }
        return true
    }

    /// ``forEachChange(from:_:)`` of versions that share no base: both walked in id order side by
    /// side (a first list against the empty list is every user, new).
    func forEachChangeWalked(from old: PresenceList, _ body: (RankedTree<UserPresence>.Change) -> Bool) -> Bool {
        var (was, now) = (old.makeIterator(), makeIterator())
        var (before, after) = (was.next(), now.next())
        while before != nil || after != nil {
            let order =
                switch (before, after) {
                case (let before?, let after?): UTF16Order.compare(before.id, after.id)
                case (nil, _): 1
                case (_, nil): -1
                }
            if order < 0 {
                guard body(RankedTree.Change(old: before, new: nil)) else { return false }
                before = was.next()
            } else if order > 0 {
                guard body(RankedTree.Change(old: nil, new: after)) else { return false }
                after = now.next()
            } else {
                if before != after, !body(RankedTree.Change(old: before, new: after)) { return false }
                (before, after) = (was.next(), now.next())
            }
        }
        return true
    }
}
