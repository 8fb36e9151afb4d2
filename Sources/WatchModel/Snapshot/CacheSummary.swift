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

    /// The bytes stored under one top-level key.
    public struct PathSize: Sendable, Equatable {
        /// The key (`/` for data at the root).
        public var path: String
        /// Its bytes.
        public var bytes: Int

        /// Makes a path's size.
        public init(path: String, bytes: Int) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Bytes used.
    public var totalBytes: Int
    /// The cache's size limit (`persistenceCacheSizeBytes`).
    public var limitBytes: Int
    /// Bytes per top-level key, largest first.
    public var bytesByPath: [PathSize]
    /// Every tracked query.
    public var queries: [Query]
    /// The queries (`path$query`) the next prune round would remove, oldest use first.
    public var nextPrune: [String]
    /// Whether a prune round is due.
    public var pruneDue: Bool
    /// Since when, and why, the store does not take writes (nil: it does).
    public var storeFailing: (since: UnixTime, reason: String)? {
        get { storeFailingSince.map { ($0, storeFailingReason) } }
        set {
            storeFailingSince = newValue?.since
            storeFailingReason = newValue?.reason ?? ""
        }
    }
    private var storeFailingSince: UnixTime?
    private var storeFailingReason = ""

    /// Makes a cache summary.
    public init(
        totalBytes: Int, limitBytes: Int, bytesByPath: [PathSize], queries: [Query],
        nextPrune: [String], pruneDue: Bool, storeFailing: (since: UnixTime, reason: String)? = nil
    ) {
        self.storeFailingSince = storeFailing?.since
        self.storeFailingReason = storeFailing?.reason ?? ""
        self.totalBytes = totalBytes
        self.limitBytes = limitBytes
        self.bytesByPath = bytesByPath
        self.queries = queries
        self.nextPrune = nextPrune
        self.pruneDue = pruneDue
    }

}
