/// An immutable map from ``ChildKey`` to ``Node``, kept in Firebase key order.
///
/// A persistent treap: updates copy only the O(log n) nodes on one path and share the rest, so a
/// snapshot stays valid while a newer version is built, and a node with 100,000 children is
/// updated as cheaply as a small one. Tree priorities are a hash of the key, so the same set of
/// keys always has the same shape. (swift-collections' `SortedDictionary` is behind an unstable
/// trait and is not persistent, hence this small type.)
public struct ChildrenMap: Sendable {
    /// One key and its node, with the subtrees before and after it.
    ///
    /// `@unchecked Sendable`: an entry is written after it is made only by
    /// the in-place changes (``ChildrenMap/modifyExisting(_:_:)``, ``ChildrenMap/insert(_:at:)``,
    /// ``ChildrenMap/remove(_:)``), after `isKnownUniquelyReferenced` found the writer's
    /// reference to be the only one to it and to every entry above it, as Swift's own
    /// copy-on-write storage does: no other holder, on this thread or another, can see the change.
    final class Entry: @unchecked Sendable {
        let key: ChildKey
        // Variables only for the in-place changes (``ChildrenMap/modifyExisting(_:_:)``,
        // ``ChildrenMap/insert(_:at:)``, ``ChildrenMap/remove(_:)``), which write the node, the
        // subtrees and the count of entries this map alone holds. A write goes through the only
        // reference there is, so no other access can overlap it, and no dynamic exclusivity check
        // is kept.
        @exclusivity(unchecked) var node: Node
        let weight: UInt64
        @exclusivity(unchecked) var left: Entry?
        @exclusivity(unchecked) var right: Entry?
        @exclusivity(unchecked) var count: Int

        init(key: ChildKey, node: Node, weight: UInt64, left: Entry?, right: Entry?) {
            self.key = key
            self.node = node
            self.weight = weight
            self.left = left
            self.right = right
            self.count = 1 + (left?.count ?? 0) + (right?.count ?? 0)
        }

        func with(left: Entry?, right: Entry?) -> Entry {
            Entry(key: key, node: node, weight: weight, left: left, right: right)
        }
    }

    /// The entries; for a map on packed children (``packed``), the changes made since, a
    /// removed child as an empty node.
    var root: Entry?
    /// The children a large object arrived with, kept as its text (``PackedChildren``); nil for
    /// every map not read so (``init(packed:)``).
    var packed: PackedLayer?

    /// The empty map.
    public init() {
        root = nil
        packed = nil
    }

    init(root: Entry?, packed: PackedLayer? = nil) {
        self.root = root
        self.packed = packed
    }

    /// Builds a map from entries already sorted by key (no duplicates), in linear time.
    public init(sorted entries: [(key: ChildKey, node: Node)]) {
        self.root = ChildrenMap.build(entries)
        self.packed = nil
    }

    /// Builds a map from entries in any order; a repeated key keeps its last node.
    ///
    /// Entries already in key order without repeats (a parsed object often is) are not sorted.
    public init(_ entries: some Sequence<(key: ChildKey, node: Node)>) {
        var entries = Array(entries)
        if !ChildrenMap.isStrictlyAscending(entries) {
            // Stable, so that of entries with one key the last stays last.
            entries.sort { $0.key < $1.key }
            var kept = 0
            for index in entries.indices {
                if kept > 0, entries[kept - 1].key == entries[index].key {
                    entries[kept - 1] = entries[index]
                } else {
                    if kept != index { entries[kept] = entries[index] }
                    kept += 1
                }
            }
            entries.removeLast(entries.count - kept)
        }
        self.root = ChildrenMap.build(entries)
        self.packed = nil
    }

    /// Whether every key is greater than the one before it.
    private static func isStrictlyAscending(_ entries: [(key: ChildKey, node: Node)]) -> Bool {
        guard entries.count > 1 else { return true }
        for index in 1..<entries.count where ChildKey.compare(entries[index - 1].key, entries[index].key) >= 0 {
            return false
        }
        return true
    }

    /// The number of children.
    public var count: Int { packed?.count ?? root?.count ?? 0 }

    /// Whether there are no children (a packed map left without any becomes the empty map).
    public var isEmpty: Bool { root == nil && packed == nil }

    /// The node at `key`, or nil.
    public subscript(key: ChildKey) -> Node? {
        if let packed { return packedNode(packed, key) }
        return ChildrenMap.find(root, key)
    }

    /// The node at `key` in the tree under `root` (for a packed map's changes, an empty node
    /// where the child was removed), or nil.
    static func find(_ root: Entry?, _ key: ChildKey) -> Node? {
        guard let root else { return nil }
        // The map keeps every entry alive while it is walked: each step borrows the next entry
        // (`Unmanaged`, +0) instead of retaining it and releasing the one before.
        return withExtendedLifetime(root) {
            var current = Unmanaged.passUnretained(root)
            while true {
                let step: (found: Node?, next: Unmanaged<Entry>?) = current._withUnsafeGuaranteedRef { entry in
                    let order = ChildKey.compare(key, entry.key)
                    if order == 0 { return (entry.node, nil) }
                    let next = order < 0 ? entry.left : entry.right
                    return (nil, next.map { Unmanaged.passUnretained($0) })
                }
                if let found = step.found { return found }
                guard let next = step.next else { return nil }
                current = next
            }
        }
    }

    /// A map with `node` at `key` (replacing any previous node).
    public func inserting(_ node: Node, at key: ChildKey) -> ChildrenMap {
        if let packed { return packedInserting(packed, node, at: key) }
        return ChildrenMap(root: ChildrenMap.insert(root, key: key, node: node, weight: ChildrenMap.weight(of: key)))
    }

    /// A map without `key`.
    public func removing(_ key: ChildKey) -> ChildrenMap {
        if let packed { return packedRemoving(packed, key) }
        return ChildrenMap(root: ChildrenMap.remove(root, key: key))
    }

    /// The first entry in key order.
    public var first: (key: ChildKey, node: Node)? {
        if packed != nil {
            var iterator = makeIterator()
            return iterator.next()
        }
        var current = root
        while let left = current?.left { current = left }
        return current.map { ($0.key, $0.node) }
    }

    /// The last entry in key order.
    public var last: (key: ChildKey, node: Node)? {
        if packed != nil {
            var iterator = reversedEntries.makeIterator()
            return iterator.next()
        }
        var current = root
        while let right = current?.right { current = right }
        return current.map { ($0.key, $0.node) }
    }

    /// The entry just before `key` in key order (`key` itself need not be present).
    public func predecessor(of key: ChildKey) -> (key: ChildKey, node: Node)? {
        if let packed { return packedPredecessor(packed, of: key) }
        return ChildrenMap.predecessorEntry(root, of: key).map { ($0.key, $0.node) }
    }

    /// The entry of the tree under `root` just before `key` (an empty node is an entry here).
    static func predecessorEntry(_ root: Entry?, of key: ChildKey) -> Entry? {
        var current = root
        var best: Entry?
        while let entry = current {
            if ChildKey.compare(entry.key, key) < 0 {
                best = entry
                current = entry.right
            } else {
                current = entry.left
            }
        }
        return best
    }

    // MARK: - Treap operations

    static func weight(of key: ChildKey) -> UInt64 { StableHash.of(key.string) }

    static func insert(_ entry: Entry?, key: ChildKey, node: Node, weight: UInt64) -> Entry {
        guard let entry else { return Entry(key: key, node: node, weight: weight, left: nil, right: nil) }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 {
            return Entry(key: key, node: node, weight: entry.weight, left: entry.left, right: entry.right)
        }
        if order < 0 {
            let left = insert(entry.left, key: key, node: node, weight: weight)
            if left.weight > entry.weight {
                return left.with(left: left.left, right: entry.with(left: left.right, right: entry.right))
            }
            return entry.with(left: left, right: entry.right)
        } else {
            let right = insert(entry.right, key: key, node: node, weight: weight)
            if right.weight > entry.weight {
                return right.with(left: entry.with(left: entry.left, right: right.left), right: right.right)
            }
            return entry.with(left: entry.left, right: right)
        }
    }

    static func remove(_ entry: Entry?, key: ChildKey) -> Entry? {
        guard let entry else { return nil }
        let order = ChildKey.compare(key, entry.key)
        if order == 0 { return merge(entry.left, entry.right) }
        if order < 0 {
            let left = remove(entry.left, key: key)
            return left === entry.left ? entry : entry.with(left: left, right: entry.right)
        }
        let right = remove(entry.right, key: key)
        return right === entry.right ? entry : entry.with(left: entry.left, right: right)
    }

    static func merge(_ a: Entry?, _ b: Entry?) -> Entry? {
        guard let a else { return b }
        guard let b else { return a }
        if a.weight > b.weight { return a.with(left: a.left, right: merge(a.right, b)) }
        return b.with(left: merge(a, b.left), right: b.right)
    }

    private static func build(_ entries: [(key: ChildKey, node: Node)]) -> Entry? {
        let count = entries.count
        guard count > 0 else { return nil }
        // Cartesian tree over the weights (max at the root), linear with a stack of the right
        // spine; the scratch space is on the stack for small maps, not three arrays on the heap.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { weights in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * count) { scratch in
                for index in 0..<count { weights[index] = weight(of: entries[index].key) }
                // scratch: left children, then right children, then the stack.
                let left = 0
                let right = count
                let stackBase = 2 * count
                var depth = 0
                for index in 0..<count {
                    var lastPopped = -1
                    while depth > 0, weights[scratch[stackBase + depth - 1]] < weights[index] {
                        depth -= 1
                        lastPopped = scratch[stackBase + depth]
                    }
                    scratch[left + index] = lastPopped
                    scratch[right + index] = -1
                    if depth > 0 { scratch[right + scratch[stackBase + depth - 1]] = index }
                    scratch[stackBase + depth] = index
                    depth += 1
                }
                func make(_ index: Int) -> Entry? {
                    guard index >= 0 else { return nil }
                    return Entry(
                        key: entries[index].key, node: entries[index].node, weight: weights[index],
                        left: make(scratch[left + index]), right: make(scratch[right + index]))
                }
                return make(scratch[stackBase])
            }
        }
    }
}
