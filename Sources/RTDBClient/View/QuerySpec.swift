import RTDBCore

/// A query as the engine tracks it: a location and its parameters.
public struct QuerySpec: Sendable, Hashable, CustomStringConvertible {
    /// The location.
    public var path: Path
    /// What it selects.
    public var params: QueryParams

    /// Makes a query.
    public init(path: Path, params: QueryParams = .default) {
        self.path = path
        self.params = params
    }

    /// The default query at a location.
    public static func `default`(_ path: Path) -> QuerySpec { QuerySpec(path: path) }

    /// The SDKs' query identifier (`default`, or the sorted wire object).
    public var queryIdentifier: String { params.queryIdentifier }

    /// Whether the query selects everything at its location.
    public var loadsAllData: Bool { params.loadsAllData }

    /// The query the server is asked for: queries that load all data are listened as default.
    var forListening: QuerySpec { loadsAllData && !params.isDefault ? .default(path) : self }

    /// `path$identifier`.
    public var description: String { "\(path)$\(queryIdentifier)" }
}
