import RTDBCore

/// A query as the engine tracks it: a location and its parameters (the key of views, listens,
/// tracked queries and the server cache, so it sits at the top of the module).
struct QuerySpec: Sendable, Hashable, CustomStringConvertible {
    /// The location.
    var path: Path
    /// What it selects.
    var params: QueryParams

    /// Makes a query.
    init(path: Path, params: QueryParams = .default) {
        self.path = path
        self.params = params
    }

    /// The default query at a location.
    static func `default`(_ path: Path) -> QuerySpec { QuerySpec(path: path) }

    /// The SDKs' query identifier (`default`, or the sorted wire object).
    var queryIdentifier: String { params.queryIdentifier }

    /// Whether the query selects everything at its location.
    var loadsAllData: Bool { params.loadsAllData }

    /// The query the server is asked for: queries that load all data are listened as default.
    var forListening: QuerySpec { loadsAllData && !params.isDefault ? .default(path) : self }

    /// `path$identifier`.
    var description: String { "\(path)$\(queryIdentifier)" }
}
