extension QueryParams {
    /// The children of `node` this query selects, in index order: the range, then the limit window.
    public func selectedChildren(of node: Node) -> [NamedNode] {
        var selected: [NamedNode] = []
        for (key, child) in node.children {
            let named = NamedNode(key: key, node: child)
            if matchesRange(named) { selected.append(named) }
        }
        if index != .key { selected.sort(by: index.lessThan) }
        if let limit, selected.count > limit {
            switch effectiveViewFrom {
            case .left: selected.removeSubrange(limit...)
            case .right: selected.removeSubrange(..<(selected.count - limit))
            }
        }
        return selected
    }

    /// The result of the query on `node`, as the server sends it and a view holds it.
    ///
    /// A query that loads all data returns the node as it is. Otherwise a leaf gives the empty
    /// node, and the result holds only the selected children, without the parent's priority.
    public func filter(_ node: Node) -> Node {
        if loadsAllData { return node }
        if node.isLeaf { return .empty }
        let children = selectedChildren(of: node)
        let sorted = index == .key ? children : children.sorted { ChildKey.compare($0.key, $1.key) < 0 }
        return Node(children: ChildrenMap(sorted: sorted.map { ($0.key, $0.node) }))
    }
}
