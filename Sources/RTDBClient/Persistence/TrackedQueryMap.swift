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
            byPath[query.query.path, default: Queries()].defaultQuery = query
        } else {
            byPath[query.query.path, default: Queries()].filtered[CodeUnitString(query.query.queryIdentifier)] = query
        }
    }

    /// Stops tracking `query`.
    mutating func remove(_ query: TrackedQuery) {
        let path = query.query.path
        guard var entry = byPath[path] else { return }
        if query.query.params.isDefault {
            entry.defaultQuery = nil
        } else {
            entry.filtered[CodeUnitString(query.query.queryIdentifier)] = nil
        }
        byPath[path] = entry.isEmpty ? nil : entry
    }
}
