import RTDBCore

/// A tree keyed by path segments with an optional value at each node (the SDKs' `ImmutableTree`).
///
/// A value type: "updates" return new trees. Children are visited in UTF-16 key order, as the
/// JavaScript SDK's string-keyed sorted map visits them.
struct ImmutableTree<Value> {
    var value: Value?
    /// Children by key, told apart by code units (``CodeUnitString``).
    var children: [CodeUnitString: ImmutableTree<Value>] = [:]

    init(_ value: Value? = nil) {
        self.value = value
    }

    var isEmpty: Bool { value == nil && children.isEmpty }

    /// Children in UTF-16 key order.
    var sortedChildren: [(key: String, tree: ImmutableTree<Value>)] {
        children.sorted { $0.key < $1.key }.map { ($0.key.string, $0.value) }
    }

    /// The value at `path`, if any.
    func get(_ path: Path) -> Value? {
        subtree(path).value
    }

    /// The tree at `path` (empty when absent).
    func subtree(_ path: Path) -> ImmutableTree<Value> {
        var tree = self
        for segment in path.segments {
            guard let child = tree.children[CodeUnitString(segment)] else { return ImmutableTree() }
            tree = child
        }
        return tree
    }

    /// This tree with `value` at `path`.
    func setting(_ path: Path, _ value: Value?) -> ImmutableTree<Value> {
        var copy = self
        copy.modify(path.segments[...]) { $0.value = value }
        return copy
    }

    /// This tree with `tree` replacing whatever is at `path`.
    func settingTree(_ path: Path, _ tree: ImmutableTree<Value>) -> ImmutableTree<Value> {
        var copy = self
        copy.modify(path.segments[...]) { $0 = tree }
        return copy
    }

    /// Puts `value` at `path`, in place (a loop of `tree = tree.setting(…)` copies the children
    /// at every step: quadratic in a merge's children).
    mutating func set(_ path: Path, _ value: Value?) {
        modify(path.segments[...]) { $0.value = value }
    }

    /// Replaces whatever is at `path` with `tree`, in place.
    mutating func setTree(_ path: Path, _ tree: ImmutableTree<Value>) {
        modify(path.segments[...]) { $0 = tree }
    }

    /// This tree without the value at `path` (children stay).
    func removing(_ path: Path) -> ImmutableTree<Value> {
        setting(path, nil)
    }

    private mutating func modify(_ segments: ArraySlice<String>, _ body: (inout ImmutableTree<Value>) -> Void) {
        guard let front = segments.first.map({ CodeUnitString($0) }) else {
            body(&self)
            return
        }
        // Modified in place through the dictionary: no copy of a child the tree alone holds, and
        // one lookup unless the child ends up empty.
        let emptied = ImmutableTree.modifyChild(&children[front, default: ImmutableTree()], segments.dropFirst(), body)
        if emptied { children[front] = nil }
    }

    private static func modifyChild(
        _ child: inout ImmutableTree<Value>, _ segments: ArraySlice<String>,
        _ body: (inout ImmutableTree<Value>) -> Void
    ) -> Bool {
        child.modify(segments, body)
        return child.isEmpty
    }

    /// The value nearest the root on the way to `path`, with the rest of `path` below it.
    func findRootMostValue(_ path: Path) -> (value: Value, remaining: Path)? {
        if let value { return (value, path) }
        var tree = self
        for (offset, segment) in path.segments.enumerated() {
            guard let child = tree.children[CodeUnitString(segment)] else { return nil }
            tree = child
            if let value = tree.value { return (value, Path(segments: Array(path.segments[(offset + 1)...]))) }
        }
        return nil
    }

    /// The first value on the way to `path` for which `predicate` returns something; the predicate
    /// gets each value with the rest of `path` below it.
    func findOnPath<T>(_ path: Path, _ predicate: (_ remaining: Path, Value) -> T?) -> T? {
        var tree = self
        if let value = tree.value, let found = predicate(path, value) { return found }
        for (offset, segment) in path.segments.enumerated() {
            guard let child = tree.children[CodeUnitString(segment)] else { return nil }
            tree = child
            if let value = tree.value,
                let found = predicate(Path(segments: Array(path.segments[(offset + 1)...])), value)
            {
                return found
            }
        }
        return nil
    }

    /// Visits every value on the way to `path`, root first, with the rest of `path` below it.
    func forEachOnPath(_ path: Path, _ body: (_ remaining: Path, Value) -> Void) {
        _ = findOnPath(path) { (remaining, value) -> Bool? in
            body(remaining, value)
            return nil
        }
    }

    /// Visits every value, parents before children.
    func visitValues(_ body: (Path, Value) -> Void) {
        visitValues(prefix: [], body)
    }

    private func visitValues(prefix: [String], _ body: (Path, Value) -> Void) {
        if let value { body(Path(segments: prefix), value) }
        for (key, child) in sortedChildren { child.visitValues(prefix: prefix + [key], body) }
    }

    /// Folds the tree bottom-up: `body(relativePath, value, childResults)`.
    func fold<T>(_ body: (Path, Value?, [(key: String, result: T)]) -> T) -> T {
        fold(prefix: [], body)
    }

    private func fold<T>(prefix: [String], _ body: (Path, Value?, [(key: String, result: T)]) -> T) -> T {
        let results = sortedChildren.map { ($0.key, $0.tree.fold(prefix: prefix + [$0.key], body)) }
        return body(Path(segments: prefix), value, results)
    }
}

extension ImmutableTree where Value == Node {
    /// A tree from relative-path keys (as `update()` receives them).
    init(children: [(path: Path, node: Node)]) {
        // In place: `tree = tree.settingTree(…)` copied the children's dictionary for every
        // path, so a merge of 10,000 children cost 50 million copies.
        var tree = ImmutableTree<Node>()
        for (path, node) in children { tree.setTree(path, ImmutableTree(node)) }
        self = tree
    }
}

extension ImmutableTree: Sendable where Value: Sendable {}
