import RTDBCore

/// Keeps at most `limit` children of a range, from the left or the right end
/// (docs/client-engine.md#views).
///
/// When a child leaves a full window, the next child is pulled in only if it is known locally;
/// otherwise the window shrinks until the server sends the replacement.
struct LimitedFilter: NodeFilter {
    let params: QueryParams
    let ranged: RangedFilter
    let limit: Int
    let reverse: Bool

    init(params: QueryParams) {
        self.params = params
        self.ranged = RangedFilter(params: params)
        self.limit = params.limit ?? Int.max
        self.reverse = params.effectiveViewFrom == .right
    }

    var index: Index { params.index }
    var indexedFilter: IndexedFilter { ranged.indexedFilter }
    var filtersNodes: Bool { true }

    func updateChild(
        _ snap: Node, key: ChildKey, newChild: Node, affectedPath: Path, source: any CompleteChildSource,
        accumulator: ChildChangeAccumulator?
    ) -> Node {
        let child = ranged.matches(NamedNode(key: key, node: newChild)) ? newChild : .empty
        if snap.child(key) == child { return snap }
        if snap.childCount < limit {
            return indexedFilter.updateChild(
                snap, key: key, newChild: child, affectedPath: affectedPath, source: source, accumulator: accumulator)
        }
        return fullWindowUpdate(snap, key: key, child: child, source: source, accumulator: accumulator)
    }

    func updateFullNode(_ old: Node, _ new: Node, accumulator: ChildChangeAccumulator?) -> Node {
        let filtered = new.isLeaf || new.isEmpty ? Node.empty : params.filter(new)
        return indexedFilter.updateFullNode(old, filtered, accumulator: accumulator)
    }

    func updatePriority(_ old: Node, _ priority: Node) -> Node { old }

    /// Compares in window order: index order, or its reverse for limitToLast.
    private func compare(_ a: NamedNode, _ b: NamedNode) -> Int {
        reverse ? index.compare(b, a) : index.compare(a, b)
    }

    private func fullWindowUpdate(
        _ snap: Node, key: ChildKey, child: Node, source: any CompleteChildSource, accumulator: ChildChangeAccumulator?
    ) -> Node {
        let ordered = IndexedChildren(snap, index: index)
        guard let boundary = reverse ? ordered.first : ordered.last else { return snap }
        let named = NamedNode(key: key, node: child)
        let inRange = ranged.matches(named)
        if snap.hasChild(key) {
            let oldChild = snap.child(key)
            var next = source.childAfterChild(index: index, child: boundary, reverse: reverse)
            while let candidate = next, candidate.key == key || snap.hasChild(candidate.key) {
                next = source.childAfterChild(index: index, child: candidate, reverse: reverse)
            }
            let compareNext = next.map { compare($0, named) } ?? 1
            if inRange && !child.isEmpty && compareNext >= 0 {
                accumulator?.track(.changed(key, child, old: oldChild))
                return snap.updatingChild(key, with: child)
            }
            accumulator?.track(.removed(key, oldChild))
            let shrunk = snap.updatingChild(key, with: .empty)
            if let next, ranged.matches(next) {
                accumulator?.track(.added(next.key, next.node))
                return shrunk.updatingChild(next.key, with: next.node)
            }
            return shrunk
        }
        if child.isEmpty { return snap }
        if inRange && compare(boundary, named) >= 0 {
            accumulator?.track(.removed(boundary.key, boundary.node))
            accumulator?.track(.added(key, child))
            return snap.updatingChild(key, with: child).updatingChild(boundary.key, with: .empty)
        }
        return snap
    }
}
