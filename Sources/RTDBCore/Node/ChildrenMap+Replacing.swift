extension ChildrenMap {
    /// The map with the nodes of keys it holds replaced, in one pass: each entry on the way to
    /// a replaced key is copied once, not once per key (the keys keep the tree's shape).
    ///
    /// - Parameter replacements: Keys in key order, each once, every one already in the map.
    func replacing(_ replacements: ArraySlice<(key: ChildKey, node: Node)>) -> ChildrenMap {
        guard !replacements.isEmpty else { return self }
        return ChildrenMap(root: ChildrenMap.replace(root, replacements))
    }

    private static func replace(_ entry: Entry?, _ replacements: ArraySlice<(key: ChildKey, node: Node)>) -> Entry? {
        guard let entry, !replacements.isEmpty else { return entry }
        // Those before the entry's key, the entry's own, those after.
        var split = replacements.startIndex
        while split < replacements.endIndex, ChildKey.compare(replacements[split].key, entry.key) < 0 { split += 1 }
        var after = split
        var node = entry.node
        if after < replacements.endIndex, ChildKey.compare(replacements[after].key, entry.key) == 0 {
            node = replacements[after].node
            after += 1
        }
        let left = replace(entry.left, replacements[replacements.startIndex..<split])
        let right = replace(entry.right, replacements[after...])
        return Entry(key: entry.key, node: node, weight: entry.weight, left: left, right: right)
    }
}
