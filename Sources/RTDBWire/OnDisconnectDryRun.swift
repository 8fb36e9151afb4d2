import RTDBCore

/// The server's answer to an onDisconnect dry run (`odr`).
///
/// For each of the connection's onDisconnect writes, whether it would run now, under the rules in
/// force and the identity the writes run as, and that identity's expiry. One vocabulary for the
/// server that answers and the client that asks.
public struct OnDisconnectDryRun: Sendable, Hashable {
    /// One write as the server holds it.
    public struct Write: Sendable, Hashable {
        /// Where it writes (an update is held as one write per child).
        public var path: String
        /// Whether it removes what is there (a null write).
        public var removes: Bool
        /// Whether the rules allow it now.
        public var runs: Bool
        /// Why not, when they do not.
        public var reason: String?

        /// Makes a write's verdict.
        public init(path: String, removes: Bool, runs: Bool, reason: String? = nil) {
            self.path = path
            self.removes = removes
            self.runs = runs
            self.reason = reason
        }
    }

    /// The writes, in the order they would run.
    public var writes: [Write]
    /// Who they run as (`uid`, `owner` for the admin; nil: signed out).
    public var runsAs: String?
    /// When that identity's credential expires, if it does (seconds since 1970).
    public var expiresAt: Int64?

    /// Makes a dry run's answer.
    public init(writes: [Write], runsAs: String?, expiresAt: Int64?) {
        self.writes = writes
        self.runsAs = runsAs
        self.expiresAt = expiresAt
    }

    /// As the server sends it.
    public var json: JSONValue {
        [
            "as": runsAs.map { .string($0) } ?? .null,
            "expires": expiresAt.map { .int($0) } ?? .null,
            "writes": .array(
                writes.map {
                    [
                        "p": .string($0.path), "remove": .bool($0.removes), "runs": .bool($0.runs),
                        "reason": $0.reason.map { .string($0) } ?? .null,
                    ]
                }),
        ]
    }

    /// As the client reads it.
    public init(json: JSONValue) throws(WireError) {
        guard let writes = json["writes"]?.arrayValue else {
            throw WireError(status: .invalidData, message: "an onDisconnect dry run without 'writes'")
        }
        self.writes = try writes.map { write throws(WireError) in
            guard let path = write["p"]?.stringValue, let runs = write["runs"]?.boolValue else {
                throw WireError(status: .invalidData, message: "an onDisconnect dry run write without 'p' or 'runs'")
            }
            return Write(
                path: path, removes: write["remove"]?.boolValue ?? false, runs: runs,
                reason: write["reason"]?.stringValue)
        }
        self.runsAs = json["as"]?.stringValue
        self.expiresAt = json["expires"]?.intValue
    }
}
