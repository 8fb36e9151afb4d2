extension ChildrenMap {
    /// Passes the node at `key` to `body` to change; false, with nothing done, when it is absent.
    ///
    /// Where this map is the only holder of the entries on the way (a version nothing else
    /// shares), they are changed in place, as a value type's storage is; from the first shared
    /// one down, new entries are made, as ``inserting(_:at:)`` would.
    ///
    /// A node `body` leaves empty must be taken out next (``removing(_:)``): a map holds none.
    mutating func modifyExisting(_ key: ChildKey, _ body: (inout Node) -> Void) -> Bool {
        ChildrenMap.modify(&root, key, body)
    }

    private static func modify(_ slot: inout Entry?, _ key: ChildKey, _ body: (inout Node) -> Void) -> Bool {
        // Asked before `entry` holds a second reference.
        let unique = isKnownUniquelyReferenced(&slot)
        guard let entry = slot else { return false }
        guard unique else {
            // Shared from here down: a new path to the key (the same shape: no key comes or goes).
            guard let copied = replacing(entry, key, body) else { return false }
            slot = copied
            return true
        }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 {
            body(&entry.node)
            return true
        }
        return order < 0 ? modify(&entry.left, key, body) : modify(&entry.right, key, body)
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
