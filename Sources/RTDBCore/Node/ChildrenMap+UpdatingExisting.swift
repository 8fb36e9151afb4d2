extension ChildrenMap {
    /// The map with the node of each of `keys` it holds passed through `transform`, in one pass.
    ///
    /// Each entry on the way to one of them is copied once, not once per key, and found on the
    /// way (no lookup of its own). An empty result stays in the map for the caller to remove.
    ///
    /// - Parameter keys: In key order, each once.
    /// - Returns: The map, and the keys it does not hold (untransformed).
    func updatingExisting(
        _ keys: ArraySlice<ChildKey>, _ transform: (ChildKey, Node) -> Node
    ) -> (map: ChildrenMap, missing: [ChildKey]) {
        guard !keys.isEmpty else { return (self, []) }
        if packed != nil { return packedUpdatingExisting(keys, transform) }
        var missing: [ChildKey] = []
        let root = ChildrenMap.update(root, keys, transform, missing: &missing)
        return (ChildrenMap(root: root), missing)
    }

    private static func update(
        _ entry: Entry?, _ keys: ArraySlice<ChildKey>, _ transform: (ChildKey, Node) -> Node,
        missing: inout [ChildKey]
    ) -> Entry? {
        guard !keys.isEmpty else { return entry }
        guard let entry else {
            missing.append(contentsOf: keys)
            return nil
        }
        // Those before the entry's key, the entry's own, those after.
        var split = keys.startIndex
        while split < keys.endIndex, ChildKey.compare(keys[split], entry.key) < 0 { split += 1 }
        var after = split
        var node = entry.node
        if after < keys.endIndex, ChildKey.compare(keys[after], entry.key) == 0 {
            node = transform(entry.key, entry.node)
            after += 1
        }
        let left = update(entry.left, keys[keys.startIndex..<split], transform, missing: &missing)
        let right = update(entry.right, keys[after...], transform, missing: &missing)
        return Entry(key: entry.key, node: node, weight: entry.weight, left: left, right: right)
    }
}
