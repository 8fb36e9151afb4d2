import RTDBCore

/// What this device's disk cache holds, in the snapshot's terms: sizes, tracked queries, and what
/// the next prune would remove.
public struct CacheSummary: Sendable, Equatable {
    /// One tracked query.
    public struct Query: Sendable, Equatable {
        /// The location.
        public var path: String
        /// `default`, or the query's parameters.
        public var query: String
        /// The cache holds all its data.
        public var complete: Bool
        /// It has a listener now.
        public var active: Bool
        /// It is kept synced (never pruned).
        public var keepSynced: Bool
        /// When it was last used.
        public var lastUse: UnixTime

        /// Makes a tracked query's summary.
        public init(
            path: String, query: String, complete: Bool, active: Bool, keepSynced: Bool, lastUse: UnixTime
        ) {
            self.path = path
            self.query = query
            self.complete = complete
            self.active = active
            self.keepSynced = keepSynced
            self.lastUse = lastUse
        }
    }

    /// Bytes used.
    public var totalBytes: Int
    /// The cache's size limit (`persistenceCacheSizeBytes`).
    public var limitBytes: Int
    /// Bytes per top-level key, largest first.
    public var bytesByPath: [(path: String, bytes: Int)]
    /// Every tracked query.
    public var queries: [Query]
    /// The queries (`path$query`) the next prune round would remove, oldest use first.
    public var nextPrune: [String]
    /// Whether a prune round is due.
    public var pruneDue: Bool

    /// Makes a cache summary.
    public init(
        totalBytes: Int, limitBytes: Int, bytesByPath: [(path: String, bytes: Int)], queries: [Query],
        nextPrune: [String], pruneDue: Bool
    ) {
        self.totalBytes = totalBytes
        self.limitBytes = limitBytes
        self.bytesByPath = bytesByPath
        self.queries = queries
        self.nextPrune = nextPrune
        self.pruneDue = pruneDue
    }

    /// Equal when every figure and list is (its size pairs compared by path and bytes).
    public static func == (lhs: CacheSummary, rhs: CacheSummary) -> Bool {
        lhs.totalBytes == rhs.totalBytes && lhs.limitBytes == rhs.limitBytes
            && lhs.bytesByPath.map(\.path) == rhs.bytesByPath.map(\.path)
            && lhs.bytesByPath.map(\.bytes) == rhs.bytesByPath.map(\.bytes) && lhs.queries == rhs.queries
            && lhs.nextPrune == rhs.nextPrune && lhs.pruneDue == rhs.pruneDue
    }
}
