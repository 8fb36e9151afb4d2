import RTDBCore

/// Where a rule runs; a ``Path`` is made only when something asks.
///
/// `data`, a snapshot's place and a refusal's message ask; most rules never do
/// (`newData.isString()`), so a walk down the rules allocates no path per level.
struct RuleLocation {
    private let base: Path
    private let depth: Int
    private let key: String?

    /// The location of `path`'s first `depth` keys.
    init(prefixOf path: Path, depth: Int) {
        base = path
        self.depth = depth
        key = nil
    }

    /// The location of `key` below `parent`.
    init(_ key: String, below parent: RuleLocation) {
        base = parent.key == nil ? parent.base : parent.path
        depth = parent.key == nil ? parent.depth : base.count
        self.key = key
    }

    /// How many keys the location's path has.
    var count: Int { key == nil ? depth : depth + 1 }

    /// The key at `position` of the location's path (0 for the first); nil past its end.
    func key(at position: Int) -> String? {
        if position >= 0, position < depth { return base.segments[position] }
        return position == depth ? key : nil
    }

    /// The location as a path.
    var path: Path {
        let prefix = base.prefix(depth)
        guard let key else { return prefix }
        return prefix.appending(key: key)
    }
}
