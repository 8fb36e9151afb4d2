extension ChildrenMap {
    /// One child that differs between two versions of a map: its node before (nil: it came) and
    /// after (nil: it went).
    public struct ChildChange: Sendable {
        /// The child's key.
        public let key: ChildKey
        /// The node before, or nil when the child is new.
        public let old: Node?
        /// The node after, or nil when the child went.
        public let new: Node?
    }

    /// The children that differ from `old`, in no particular order.
    ///
    /// Versions of one map share every subtree an update did not touch, and a key's place in the
    /// tree depends only on the keys present (the weights are the keys' hashes), so the walk skips
    /// shared subtrees and meets the same key at the same place in both: a change to one child of
    /// a million costs a few dozen steps, not a million. Correct for any two maps; only the speed
    /// needs them to be versions of one another.
    public func changes(from old: ChildrenMap) -> [ChildChange] {
        if packed != nil || old.packed != nil { return packedChanges(from: old) }
        var changes: [ChildChange] = []
        ChildrenMap.diff(old.root, root, into: &changes)
        return changes
    }

    static func diff(_ old: Entry?, _ new: Entry?, into changes: inout [ChildChange]) {
        if old === new { return }
        guard let old else {
            walkEntries(new) { changes.append(ChildChange(key: $0.key, old: nil, new: $0.node)) }
            return
        }
        guard let new else {
            walkEntries(old) { changes.append(ChildChange(key: $0.key, old: $0.node, new: nil)) }
            return
        }
        if ChildKey.compare(old.key, new.key) == 0 {
            if !sameNode(old.node, new.node) { changes.append(ChildChange(key: new.key, old: old.node, new: new.node)) }
            diff(old.left, new.left, into: &changes)
            diff(old.right, new.right, into: &changes)
        } else if old.weight >= new.weight {
            // The heavier root's key is the one a version lacks (or both have it elsewhere, when
            // weights tie): split the other side around it.
            let (before, found, after) = split(new, at: old.key)
            if let found {
                if !sameNode(old.node, found) { changes.append(ChildChange(key: old.key, old: old.node, new: found)) }
            } else {
                changes.append(ChildChange(key: old.key, old: old.node, new: nil))
            }
            diff(old.left, before, into: &changes)
            diff(old.right, after, into: &changes)
        } else {
            let (before, found, after) = split(old, at: new.key)
            if let found {
                if !sameNode(found, new.node) { changes.append(ChildChange(key: new.key, old: found, new: new.node)) }
            } else {
                changes.append(ChildChange(key: new.key, old: nil, new: new.node))
            }
            diff(before, new.left, into: &changes)
            diff(after, new.right, into: &changes)
        }
    }

    /// Whether two versions of a child hold the same data; shared subtrees answer at once.
    static func sameNode(_ a: Node, _ b: Node) -> Bool {
        if case .resolved(.children(let left)) = a.stored, case .resolved(.children(let right)) = b.stored,
            left.root === right.root, left.packed?.children === right.packed?.children, a.priority == b.priority
        {
            return true
        }
        return a == b
    }

    /// The entries before `key`, the node at it, and the entries after it (new entries only on
    /// the path to `key`; every subtree off it is shared).
    private static func split(_ entry: Entry?, at key: ChildKey) -> (Entry?, Node?, Entry?) {
        guard let entry else { return (nil, nil, nil) }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 { return (entry.left, entry.node, entry.right) }
        if order < 0 {
            let (before, found, after) = split(entry.left, at: key)
            return (before, found, entry.with(left: after, right: entry.right))
        }
        let (before, found, after) = split(entry.right, at: key)
        return (entry.with(left: entry.left, right: before), found, after)
    }

    private static func walkEntries(_ entry: Entry?, _ body: (Entry) -> Void) {
        guard let entry else { return }
        walkEntries(entry.left, body)
        body(entry)
        walkEntries(entry.right, body)
    }
}
