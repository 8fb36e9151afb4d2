/// The children a map on packed text arrived with, and how many it holds now.
final class PackedLayer: Sendable {
    let children: PackedChildren
    /// The map's children: the packed ones, less those removed, with those added.
    let count: Int

    init(children: PackedChildren, count: Int) {
        self.children = children
        self.count = count
    }
}

extension ChildrenMap {
    /// A map of packed children, read one by one as they are looked at; changes made to it are
    /// kept in a treap beside them.
    init(packed children: PackedChildren) {
        self.init(root: nil, packed: children.count == 0 ? nil : PackedLayer(children: children, count: children.count))
    }

    /// Whether the map keeps its children as packed text (``PackedChildren``).
    package var isPacked: Bool { packed != nil }

    /// The node at `key`: its change if it has one (an empty node: removed), else the packed one.
    func packedNode(_ layer: PackedLayer, _ key: ChildKey) -> Node? {
        if let changed = ChildrenMap.find(root, key) { return changed.isEmpty ? nil : changed }
        return layer.children.node(for: key)
    }

    /// Whether the packed map holds `key` (nothing read).
    private func packedContains(_ layer: PackedLayer, _ key: ChildKey) -> Bool {
        if let changed = ChildrenMap.find(root, key) { return !changed.isEmpty }
        return layer.children.contains(key)
    }

    /// The map with its changes in `root` and `count` children; the empty map at none.
    private static func packed(_ layer: PackedLayer, root: Entry?, count: Int) -> ChildrenMap {
        guard count > 0 else { return ChildrenMap() }
        return ChildrenMap(root: root, packed: PackedLayer(children: layer.children, count: count))
    }

    func packedInserting(_ layer: PackedLayer, _ node: Node, at key: ChildKey) -> ChildrenMap {
        if node.isEmpty { return packedRemoving(layer, key) }
        let added = packedContains(layer, key) ? 0 : 1
        let root = ChildrenMap.insert(root, key: key, node: node, weight: ChildrenMap.weight(of: key))
        return ChildrenMap.packed(layer, root: root, count: layer.count + added)
    }

    func packedRemoving(_ layer: PackedLayer, _ key: ChildKey) -> ChildrenMap {
        let change = ChildrenMap.find(root, key)
        if change?.isEmpty == true { return self }  // removed already
        let isPackedChild = layer.children.contains(key)
        guard change != nil || isPackedChild else { return self }
        // A packed child is hidden by an empty node; an added one simply goes.
        let root =
            isPackedChild
            ? ChildrenMap.insert(root, key: key, node: .empty, weight: ChildrenMap.weight(of: key))
            : ChildrenMap.remove(root, key: key)
        return ChildrenMap.packed(layer, root: root, count: layer.count - 1)
    }

    func packedPredecessor(_ layer: PackedLayer, of key: ChildKey) -> (key: ChildKey, node: Node)? {
        var bound = key
        while true {
            let change = ChildrenMap.predecessorEntry(root, of: bound)
            let position = layer.children.lowerBound(bound) - 1
            let packedKey = position >= 0 ? layer.children.key(at: position) : nil
            if let change, packedKey.map({ ChildKey.compare(change.key, $0) >= 0 }) ?? true {
                if !change.node.isEmpty { return (change.key, change.node) }
                bound = change.key  // removed: look before it
                continue
            }
            // No change lies between the packed key and the bound, so none hides it.
            guard let packedKey else { return nil }
            return (packedKey, layer.children.node(at: position))
        }
    }

    /// The map with the child at `key`, which it holds, replaced by `node` (taken out if empty).
    private func packedReplacing(_ layer: PackedLayer, _ key: ChildKey, with node: Node) -> ChildrenMap {
        if node.isEmpty { return packedRemoving(layer, key) }
        // The count stays: the layer does too.
        return ChildrenMap(
            root: ChildrenMap.insert(root, key: key, node: node, weight: ChildrenMap.weight(of: key)), packed: layer)
    }

    /// ``modifyExisting(_:_:)`` of a packed map: a node left empty is taken out here.
    mutating func packedModifyExisting(_ key: ChildKey, _ body: (inout Node) -> Void) -> Bool {
        guard let layer = packed, var node = packedNode(layer, key) else { return false }
        body(&node)
        self = packedReplacing(layer, key, with: node)
        return true
    }

    /// ``updatingExisting(_:_:)`` of a packed map: an empty result is taken out here.
    func packedUpdatingExisting(
        _ keys: ArraySlice<ChildKey>, _ transform: (ChildKey, Node) -> Node
    ) -> (map: ChildrenMap, missing: [ChildKey]) {
        var map = self
        var missing: [ChildKey] = []
        for key in keys {
            guard let layer = map.packed, let node = map.packedNode(layer, key) else {
                missing.append(key)
                continue
            }
            map = map.packedReplacing(layer, key, with: transform(key, node))
        }
        return (map, missing)
    }
}
