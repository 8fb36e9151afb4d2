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
        forEachChange(from: old, by: compare, same: same) { change in
            changes.append(change)
            return true
        }
        return changes
    }

    /// Calls `body` with each element that differs from `old`, in order, until it returns false
    /// (a first list of a million is then walked, not gathered); false when it was stopped.
    @discardableResult
    public func forEachChange(
        from old: RankedTree, by compare: Comparison, same: (Element, Element) -> Bool, _ body: (Change) -> Bool
    ) -> Bool {
        Self.diff(old.root, root, compare, same, body)
    }

    /// Calls `body` with each element under `entry` in order until it returns false.
    private static func visit(_ entry: Entry?, _ body: (Element) -> Bool) -> Bool {
        guard let entry else { return true }
        return visit(entry.left, body) && body(entry.element) && visit(entry.right, body)
    }

    private static func diff(
        _ old: Entry?, _ new: Entry?, _ compare: Comparison, _ same: (Element, Element) -> Bool,
        _ body: (Change) -> Bool
    ) -> Bool {
        if old === new { return true }
        guard let old else { return visit(new) { body(Change(old: nil, new: $0)) } }
        guard let new else { return visit(old) { body(Change(old: $0, new: nil)) } }
        if compare(old.element, new.element) == 0 {
            return diff(old.left, new.left, compare, same, body)
                && (same(old.element, new.element) || body(Change(old: old.element, new: new.element)))
                && diff(old.right, new.right, compare, same, body)
        } else if old.weight >= new.weight {
            let (before, found, after) = split(new, at: old.element, by: compare)
            guard diff(old.left, before, compare, same, body) else { return false }
            if let found {
                if !same(old.element, found), !body(Change(old: old.element, new: found)) { return false }
            } else if !body(Change(old: old.element, new: nil)) {
                return false
            }
            return diff(old.right, after, compare, same, body)
        } else {
            let (before, found, after) = split(old, at: new.element, by: compare)
            guard diff(before, new.left, compare, same, body) else { return false }
            if let found {
                if !same(found, new.element), !body(Change(old: found, new: new.element)) { return false }
            } else if !body(Change(old: nil, new: new.element)) {
                return false
            }
            return diff(after, new.right, compare, same, body)
        }
    }
}
