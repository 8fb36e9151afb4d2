import RTDBCore

/// A node's children sorted by an index, for the operations views need in index order.
struct IndexedChildren {
    let index: Index
    let sorted: [NamedNode]

    init(_ node: Node, index: Index) {
        self.index = index
        var children = node.children.map { NamedNode(key: $0.key, node: $0.node) }
        if index != .key { children.sort(by: index.lessThan) }
        self.sorted = children
    }

    var first: NamedNode? { sorted.first }
    var last: NamedNode? { sorted.last }

    /// The position of the first child not before `post`.
    private func lowerBound(_ post: NamedNode) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if index.compare(sorted[middle], post) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Children from `post` onwards (at or after it), or, when `reverse`, at or before it going back.
    func children(after post: NamedNode, reverse: Bool) -> [NamedNode] {
        if !reverse { return Array(sorted[lowerBound(post)...]) }
        var end = lowerBound(post)
        if end < sorted.count, index.compare(sorted[end], post) == 0 { end += 1 }
        return sorted[..<end].reversed()
    }

    /// The key of the child before `child` in index order, or nil when it comes first.
    func predecessor(of child: NamedNode) -> ChildKey? {
        let position = lowerBound(child)
        return position > 0 ? sorted[position - 1].key : nil
    }

    /// The key of the child before `child` in `node` in `index` order, found in the node's own key
    /// order where that is the index's order: always for the key index, and for the priority
    /// index among children with no priority, which come first, by key.
    ///
    /// `.some(nil)` when `child` comes first; nil when this cannot tell without sorting every child
    /// (`child` has a priority, or too many before it do).
    static func predecessor(of child: NamedNode, in node: Node, index: Index) -> ChildKey?? {
        let children = node.children
        switch index {
        case .key:
            return .some(children.predecessor(of: child.key)?.key)
        case .priority where child.node.priority == nil:
            var key = child.key
            for _ in 0..<Self.priorityWalkLimit {
                guard let before = children.predecessor(of: key) else { return .some(nil) }
                if before.node.priority == nil { return .some(before.key) }
                key = before.key
            }
            return nil
        default:
            return nil
        }
    }

    /// How many children with a priority ``predecessor(of:in:index:)`` steps over before it sorts.
    static let priorityWalkLimit = 16
}
