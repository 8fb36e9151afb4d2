extension ChildrenMap {
    /// Passes the node at `key` to `body` to change; false, with nothing done, when it is absent.
    ///
    /// Where this map is the only holder of the entries on the way (a version nothing else
    /// shares), they are changed in place, as a value type's storage is; from the first shared
    /// one down, new entries are made, as ``inserting(_:at:)`` would.
    ///
    /// A node `body` leaves empty must be taken out next (``removing(_:)``): a map holds none.
    mutating func modifyExisting(_ key: ChildKey, _ body: (inout Node) -> Void) -> Bool {
        if packed != nil { return packedModifyExisting(key, body) }
        return ChildrenMap.modify(&root, key, body)
    }

    private static func modify(_ slot: inout Entry?, _ key: ChildKey, _ body: (inout Node) -> Void) -> Bool {
        // nil: absent; .some(nil): done (a new path was made); .some(entry): on down from it.
        guard let first = step(&slot, key, body) else { return false }
        guard var current = first else { return true }
        // Down the entries this map alone holds, each borrowed (`Unmanaged`, +0: `slot` keeps
        // them alive), not retained and released at every step.
        while true {
            let next: Unmanaged<Entry>?? = current._withUnsafeGuaranteedRef { entry in
                let order = ChildKey.compare(key, entry.key)
                if order == 0 {
                    body(&entry.node)
                    return .some(nil)
                }
                return order < 0 ? step(&entry.left, key, body) : step(&entry.right, key, body)
            }
            guard let next else { return false }
            guard let next else { return true }
            current = next
        }
    }

    /// One step down to the subtree in `slot`: the entry to go on from, if this map alone holds
    /// it; else the new path made from it (`.some(nil)`), or nil when the key is not there.
    private static func step(_ slot: inout Entry?, _ key: ChildKey, _ body: (inout Node) -> Void)
        -> Unmanaged<Entry>??
    {
        let unique = isKnownUniquelyReferenced(&slot)
        guard let child = slot else { return nil }
        guard unique else {
            guard let copied = replacing(child, key, body) else { return nil }
            slot = copied
            return .some(nil)
        }
        return .some(Unmanaged.passUnretained(child))
    }

    /// A new path from `entry` to `key` with its node passed through `body`; nil if absent.
    private static func replacing(_ entry: Entry, _ key: ChildKey, _ body: (inout Node) -> Void) -> Entry? {
        let order = ChildKey.compare(key, entry.key)
        if order == 0 {
            var node = entry.node
            body(&node)
            return Entry(key: entry.key, node: node, weight: entry.weight, left: entry.left, right: entry.right)
        }
        if order < 0 {
            guard let left = entry.left, let copied = replacing(left, key, body) else { return nil }
            return entry.with(left: copied, right: entry.right)
        }
        guard let right = entry.right, let copied = replacing(right, key, body) else { return nil }
        return entry.with(left: entry.left, right: copied)
    }
}

extension ChildrenMap {
    /// Puts `node` at `key` (replacing any node there), as ``inserting(_:at:)`` does, changing in
    /// place the entries this map alone holds on the way down.
    ///
    /// From the first shared entry, or where the new key rises above the entries below it (a
    /// treap rotation, a few entries in expectation), a new path is made as ``inserting(_:at:)``
    /// makes it; the shape is the one that makes.
    public mutating func insert(_ node: Node, at key: ChildKey) {
        if let packed {
            self = packedInserting(packed, node, at: key)
            return
        }
        ChildrenMap.insertInPlace(&root, key: key, node: node, weight: ChildrenMap.weight(of: key))
    }

    /// Takes `key` out (nothing when absent), as ``removing(_:)`` does, changing in place the
    /// entries this map alone holds on the way down.
    public mutating func remove(_ key: ChildKey) {
        if let packed {
            self = packedRemoving(packed, key)
            return
        }
        ChildrenMap.removeInPlace(&root, key: key)
    }

    /// Returns whether the key was new (the counts above it grow by one).
    @discardableResult
    private static func insertInPlace(_ slot: inout Entry?, key: ChildKey, node: Node, weight: UInt64) -> Bool {
        guard isKnownUniquelyReferenced(&slot), let entry = slot else {
            return replace(&slot) { insert($0, key: key, node: node, weight: weight) }
        }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 {
            entry.node = node
            return false
        }
        // A heavier key sits above this entry (so it is not below it): the treap's own insertion
        // of this subtree rotates it up.
        if weight > entry.weight { return replace(&slot) { insert($0, key: key, node: node, weight: weight) } }
        let added =
            order < 0
            ? insertInPlace(&entry.left, key: key, node: node, weight: weight)
            : insertInPlace(&entry.right, key: key, node: node, weight: weight)
        if added { entry.count += 1 }
        return added
    }

    /// Returns whether the key was there (the counts above it shrink by one).
    @discardableResult
    private static func removeInPlace(_ slot: inout Entry?, key: ChildKey) -> Bool {
        guard isKnownUniquelyReferenced(&slot), let entry = slot else { return replace(&slot) { remove($0, key: key) } }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 {
            slot = merge(entry.left, entry.right)
            return true
        }
        let removed = order < 0 ? removeInPlace(&entry.left, key: key) : removeInPlace(&entry.right, key: key)
        if removed { entry.count -= 1 }
        return removed
    }

    /// Puts in `slot` the subtree `make` builds from it; whether its count changed.
    private static func replace(_ slot: inout Entry?, _ make: (Entry?) -> Entry?) -> Bool {
        let before = slot?.count ?? 0
        let made = make(slot)
        let changed = (made?.count ?? 0) != before
        if made !== slot { slot = made }
        return changed
    }
}
