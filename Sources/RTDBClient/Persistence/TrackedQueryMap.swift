import RTDBCore

/// The tracked queries in memory, by path: a path's default query apart from its filtered ones.
///
/// An acknowledged write makes a complete default query at its path, and a draining queue makes
/// thousands: each is one slot of its path's entry, not a dictionary of its own.
struct TrackedQueryMap {
    private struct Queries {
        var defaultQuery: TrackedQuery?
        var filtered: [CodeUnitString: TrackedQuery] = [:]

        var isEmpty: Bool { defaultQuery == nil && filtered.isEmpty }
    }

    private var byPath: [Path: Queries] = [:]
    /// How many default queries are tracked at each depth (segments of their path): a walk up
    /// from a path looks only where one may be (an acknowledgement walks up from its path, and
    /// a draining queue's are all at one depth).
    private var defaultsAtDepth: [Int] = []

    /// Whether any default query is tracked at a path of `depth` segments.
    func hasDefaultQueries(atDepth depth: Int) -> Bool {
        depth < defaultsAtDepth.count && defaultsAtDepth[depth] > 0
    }

    private mutating func countDefault(at path: Path, _ change: Int) {
        let depth = path.segments.count
        if defaultsAtDepth.count <= depth {
            defaultsAtDepth += Array(repeating: 0, count: depth + 1 - defaultsAtDepth.count)
        }
        defaultsAtDepth[depth] += change
    }

    /// The query tracked for `query`.
    func query(_ query: QuerySpec) -> TrackedQuery? {
        if query.params.isDefault { return byPath[query.path]?.defaultQuery }
        return byPath[query.path]?.filtered[CodeUnitString(query.queryIdentifier)]
    }

    /// The default query tracked at `path`.
    func defaultQuery(at path: Path) -> TrackedQuery? { byPath[path]?.defaultQuery }

    /// The filtered queries tracked at `path`.
    func filteredQueries(at path: Path) -> Dictionary<CodeUnitString, TrackedQuery>.Values {
        (byPath[path]?.filtered ?? [:]).values
    }

    /// Every tracked query, in no particular order.
    var all: [TrackedQuery] {
        var queries: [TrackedQuery] = []
        for entry in byPath.values {
            if let query = entry.defaultQuery { queries.append(query) }
            queries.append(contentsOf: entry.filtered.values)
        }
        return queries
    }

    /// Every default query, in no particular order.
    var defaultQueries: [TrackedQuery] { byPath.values.compactMap(\.defaultQuery) }

    /// Makes room for `count` more paths.
    mutating func reserveCapacity(_ count: Int) {
        byPath.reserveCapacity(byPath.count + count)
    }

    /// Tracks `query`, replacing what was tracked for the same query.
    mutating func insert(_ query: TrackedQuery) {
        if query.query.params.isDefault {
            let path = query.query.path
            let isNew = Self.set(&byPath[path, default: Queries()].defaultQuery, to: query)
            if isNew { countDefault(at: path, 1) }
        } else {
            byPath[query.query.path, default: Queries()].filtered[CodeUnitString(query.query.queryIdentifier)] = query
        }
    }

    /// Marks the default query at `path` complete and returns it.
    ///
    /// When none is tracked there, `make()` is tracked first. One lookup of the path (an
    /// acknowledgement marks its path, and a draining queue has thousands).
    mutating func completeDefaultQuery(at path: Path, orTrack make: () -> TrackedQuery) -> TrackedQuery {
        let (row, isNew) = Self.complete(&byPath[path, default: Queries()].defaultQuery, make)
        if isNew { countDefault(at: path, 1) }
        return row
    }

    /// Marks `slot`'s query complete, made by `make` when the slot is empty; whether it was.
    private static func complete(
        _ slot: inout TrackedQuery?, _ make: () -> TrackedQuery
    ) -> (row: TrackedQuery, isNew: Bool) {
        let isNew = slot == nil
        var row = slot ?? make()
        row.complete = true
        slot = row
        return (row, isNew)
    }

    /// Sets `slot`; whether it was empty.
    private static func set(_ slot: inout TrackedQuery?, to query: TrackedQuery) -> Bool {
        defer { slot = query }
        return slot == nil
    }

    /// Stops tracking `query`.
    mutating func remove(_ query: TrackedQuery) {
        let path = query.query.path
        guard var entry = byPath[path] else { return }
        if query.query.params.isDefault {
            if entry.defaultQuery.take() != nil { countDefault(at: path, -1) }
        } else {
            entry.filtered[CodeUnitString(query.query.queryIdentifier)] = nil
        }
        byPath[path] = entry.isEmpty ? nil : entry
    }
}
