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

    /// The location as a path.
    var path: Path {
        let prefix = base.prefix(depth)
        guard let key else { return prefix }
        return prefix.appending(key: key)
    }
}
