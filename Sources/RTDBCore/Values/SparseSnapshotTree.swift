/// Writes to run later, kept as a sparse tree of overwrites: the onDisconnect operations of a
/// connection (docs/data-model.md#ondisconnect-operations), on the server and mirrored in the
/// client.
///
/// `remember` stores a value at a path, replacing anything stored at or below it (or updating
/// inside a value stored above it). `forget` removes a path and everything below it; a value
/// stored above it is first split into its children so that its siblings are kept.
public struct SparseSnapshotTree: Sendable, Hashable {
    private var value: Node?
    /// Keyed by UTF-16 code units, as Firebase compares keys (`é` and `e` + U+0301 are two keys).
    private var children: [CodeUnitString: SparseSnapshotTree] = [:]

    /// An empty tree.
    public init() {}

    /// Whether nothing is stored.
    public var isEmpty: Bool { value == nil && children.isEmpty }

    /// The number of stored overwrites.
    public var count: Int {
        value != nil ? 1 : children.values.reduce(0) { $0 + $1.count }
    }

    /// Stores `node` to be written at `path`.
    public mutating func remember(_ path: Path, _ node: Node) {
        remember(path.segments[...], node)
    }

    private mutating func remember(_ segments: ArraySlice<String>, _ node: Node) {
        guard let front = segments.first else {
            value = node
            children = [:]
            return
        }
        if let stored = value {
            value = stored.updating(at: Path(segments: Array(segments)), with: node)
            return
        }
        children[CodeUnitString(front), default: SparseSnapshotTree()].remember(segments.dropFirst(), node)
    }

    /// Removes what is stored at `path` and below it.
    ///
    /// - Returns: Whether this tree is now empty.
    @discardableResult
    public mutating func forget(_ path: Path) -> Bool {
        forget(path.segments[...])
    }

    private mutating func forget(_ segments: ArraySlice<String>) -> Bool {
        guard let front = segments.first else {
            value = nil
            children = [:]
            return true
        }
        if let stored = value {
            // A leaf cannot lose a child; a value with children is split so its siblings stay.
            if stored.isLeaf { return false }
            value = nil
            for (key, child) in stored.children { remember([key.string][...], child) }
            return forget(segments)
        }
        let key = CodeUnitString(front)
        if var child = children[key] {
            if child.forget(segments.dropFirst()) {
                children[key] = nil
            } else {
                children[key] = child
            }
        }
        return children.isEmpty
    }

    /// Every stored overwrite as (path, node), parents before children, keys in Firebase order.
    public func overwrites(under prefix: Path = .root) -> [(path: Path, node: Node)] {
        var result: [(path: Path, node: Node)] = []
        collect(under: prefix, ordered: true, into: &result)
        return result
    }

    /// Every stored overwrite as (path, node), in no particular order: none lies inside another,
    /// so they can be applied in any (a batch's merge), and nothing is sorted.
    public func unorderedOverwrites() -> [(path: Path, node: Node)] {
        var result: [(path: Path, node: Node)] = []
        collect(under: .root, ordered: false, into: &result)
        return result
    }

    private func collect(under prefix: Path, ordered: Bool, into result: inout [(path: Path, node: Node)]) {
        if let value { return result.append((prefix, value)) }
        let children = ordered ? children.sorted { ChildKey($0.key.string) < ChildKey($1.key.string) } : Array(children)
        for (key, child) in children {
            child.collect(under: prefix.appending(key: key.string), ordered: ordered, into: &result)
        }
    }
}
