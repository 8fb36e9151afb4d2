extension RankedTree {
    /// One element that differs between two versions: before (nil: it came) and after (nil: it
    /// went).
    public struct Change {
        /// The element before, or nil when it is new.
        public let old: Element?
        /// The element after, or nil when it went.
        public let new: Element?
    }

    /// The elements that differ from `old`, in order.
    ///
    /// A walk that skips the subtrees both versions share (see ``ChildrenMap/changes(from:)``,
    /// the same walk): a change to one of a million costs a few dozen steps. `compare` is the
    /// trees' order; `same` says whether two elements that compare equal hold the same data.
    public func changes(
        from old: RankedTree, by compare: Comparison, same: (Element, Element) -> Bool
    ) -> [Change] {
        var changes: [Change] = []
        Self.diff(old.root, root, compare, same, into: &changes)
        return changes
    }

    private static func diff(
        _ old: Entry?, _ new: Entry?, _ compare: Comparison, _ same: (Element, Element) -> Bool,
        into changes: inout [Change]
    ) {
        if old === new { return }
        guard let old else {
            walk(new) { changes.append(Change(old: nil, new: $0)) }
            return
        }
        guard let new else {
            walk(old) { changes.append(Change(old: $0, new: nil)) }
            return
        }
        if compare(old.element, new.element) == 0 {
            diff(old.left, new.left, compare, same, into: &changes)
            if !same(old.element, new.element) { changes.append(Change(old: old.element, new: new.element)) }
            diff(old.right, new.right, compare, same, into: &changes)
        } else if old.weight >= new.weight {
            let (before, found, after) = split(new, at: old.element, by: compare)
            diff(old.left, before, compare, same, into: &changes)
            if let found {
                if !same(old.element, found) { changes.append(Change(old: old.element, new: found)) }
            } else {
                changes.append(Change(old: old.element, new: nil))
            }
            diff(old.right, after, compare, same, into: &changes)
        } else {
            let (before, found, after) = split(old, at: new.element, by: compare)
            diff(before, new.left, compare, same, into: &changes)
            if let found {
                if !same(found, new.element) { changes.append(Change(old: found, new: new.element)) }
            } else {
                changes.append(Change(old: nil, new: new.element))
            }
            diff(after, new.right, compare, same, into: &changes)
        }
    }
}
