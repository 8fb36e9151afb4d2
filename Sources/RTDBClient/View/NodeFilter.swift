import RTDBCore

/// Where a limited view finds children it does not hold (for refilling its window).
protocol CompleteChildSource {
    func completeChild(_ key: ChildKey) -> Node?
    func childAfterChild(index: Index, child: NamedNode, reverse: Bool) -> NamedNode?
}

/// A source that knows nothing.
struct NoCompleteChildSource: CompleteChildSource {
    func completeChild(_ key: ChildKey) -> Node? { nil }
    func childAfterChild(index: Index, child: NamedNode, reverse: Bool) -> NamedNode? { nil }
}

/// Children known from the view's caches and the pending writes.
struct WriteTreeCompleteChildSource: CompleteChildSource {
    let writes: WriteTreeRef
    let viewCache: ViewCache
    let completeServerCache: Node?

    func completeChild(_ key: ChildKey) -> Node? {
        let eventCache = viewCache.eventCache
        if eventCache.isCompleteForChild(key) { return eventCache.node.child(key) }
        let serverCache =
            completeServerCache.map { CacheNode(node: $0, fullyInitialized: true, filtered: false) }
            ?? viewCache.serverCache
        return writes.calcCompleteChild(key, existingServerCache: serverCache)
    }

    func childAfterChild(index: Index, child: NamedNode, reverse: Bool) -> NamedNode? {
        let serverData = completeServerCache ?? viewCache.completeServerSnap
        return writes.calcIndexedSlice(
            completeServerData: serverData, post: child, count: 1, reverse: reverse, index: index
        )
        .first
    }
}

/// How a view turns data into what it shows (docs/client-engine.md#views): everything, a range, or
/// a window.
protocol NodeFilter {
    func updateChild(
        _ snap: Node, key: ChildKey, newChild: Node, affectedPath: Path, source: any CompleteChildSource,
        accumulator: ChildChangeAccumulator?
    ) -> Node
    func updateFullNode(_ old: Node, _ new: Node, accumulator: ChildChangeAccumulator?) -> Node
    func updatePriority(_ old: Node, _ priority: Node) -> Node
    var filtersNodes: Bool { get }
    var indexedFilter: IndexedFilter { get }
    var index: Index { get }
}

/// The filter of a query.
func makeFilter(for params: QueryParams) -> any NodeFilter {
    if params.loadsAllData { return IndexedFilter(index: params.index) }
    if params.limit != nil { return LimitedFilter(params: params) }
    return RangedFilter(params: params)
}

/// Keeps every child; tracks additions, removals and changes.
struct IndexedFilter: NodeFilter {
    let index: Index

    func updateChild(
        _ snap: Node, key: ChildKey, newChild: Node, affectedPath: Path, source: any CompleteChildSource,
        accumulator: ChildChangeAccumulator?
    ) -> Node {
        let oldChild = snap.child(key)
        if oldChild.child(at: affectedPath) == newChild.child(at: affectedPath), oldChild.isEmpty == newChild.isEmpty {
            return snap
        }
        if let accumulator {
            if newChild.isEmpty {
                if snap.hasChild(key) { accumulator.track(.removed(key, oldChild)) }
            } else if oldChild.isEmpty {
                accumulator.track(.added(key, newChild))
            } else {
                accumulator.track(.changed(key, newChild, old: oldChild))
            }
        }
        if snap.isLeaf && newChild.isEmpty { return snap }
        return snap.updatingChild(key, with: newChild)
    }

    func updateFullNode(_ old: Node, _ new: Node, accumulator: ChildChangeAccumulator?) -> Node {
        guard let accumulator else { return new }
        if new.isLeaf {
            // A leaf has no children: every old child went.
            if !accumulator.wantsEachChild {
                if !old.children.isEmpty { accumulator.noteWholeNodeReplaced() }
            } else {
                for (key, child) in old.children { accumulator.track(.removed(key, child)) }
            }
            return new
        }
        if !accumulator.wantsEachChild {
            // Whether anything differs, not what: versions of one node are compared where they
            // differ, and a first list against nothing by its count (a packed one stays unread).
            if new.children != old.children { accumulator.noteWholeNodeReplaced() }
            return new
        }
        // Only the children that differ: versions of one node are compared where they differ.
        let changes = new.children.changes(from: old.children)
        for change in changes {
            switch (change.old, change.new) {
            case (let before?, let after?): accumulator.track(.changed(change.key, after, old: before))
            case (let before?, nil): accumulator.track(.removed(change.key, before))
            case (nil, let after?): accumulator.track(.added(change.key, after))
            case (nil, nil): break
            }
        }
        return new
    }

    func updatePriority(_ old: Node, _ priority: Node) -> Node {
        old.isEmpty ? .empty : old.withPriorityNode(priority)
    }

    var filtersNodes: Bool { false }
    var indexedFilter: IndexedFilter { self }
}

/// Keeps the children inside a range; queries drop the parent's priority.
struct RangedFilter: NodeFilter {
    let params: QueryParams
    var index: Index { params.index }
    var indexedFilter: IndexedFilter { IndexedFilter(index: params.index) }
    var filtersNodes: Bool { true }

    func matches(_ child: NamedNode) -> Bool { params.matchesRange(child) }

    func updateChild(
        _ snap: Node, key: ChildKey, newChild: Node, affectedPath: Path, source: any CompleteChildSource,
        accumulator: ChildChangeAccumulator?
    ) -> Node {
        let child = matches(NamedNode(key: key, node: newChild)) ? newChild : .empty
        return indexedFilter.updateChild(
            snap, key: key, newChild: child, affectedPath: affectedPath, source: source, accumulator: accumulator)
    }

    func updateFullNode(_ old: Node, _ new: Node, accumulator: ChildChangeAccumulator?) -> Node {
        var filtered = Node.empty
        if !new.isLeaf {
            filtered = new.withPriority(nil)
            for (key, child) in new.children where !matches(NamedNode(key: key, node: child)) {
                filtered = filtered.updatingChild(key, with: .empty)
            }
        }
        return indexedFilter.updateFullNode(old, filtered, accumulator: accumulator)
    }

    func updatePriority(_ old: Node, _ priority: Node) -> Node { old }
}
