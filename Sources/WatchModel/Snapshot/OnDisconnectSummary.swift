import RTDBCore

/// This device's onDisconnect operations as the dashboard shows them: each with whether the
/// server would run it now, and the credential they run as.
public struct OnDisconnectSummary: Sendable, Equatable {
    /// Whether the server would run an operation now.
    public enum Verdict: Sendable, Equatable {
        /// The rules allow every write it holds for it.
        case runs
        /// The server would skip it, and why.
        case refused(String)
        /// The server holds no write for it.
        case notHeld
    }

    /// One registered operation.
    public struct Operation: Sendable, Equatable {
        /// Where it writes.
        public var path: String
        /// `set`, `update` or `remove`.
        public var kind: String
        /// When it was registered (this device's clock).
        public var registeredAt: UnixTime
        /// What the server would do with it now.
        public var verdict: Verdict

        /// Makes an operation's line.
        public init(path: String, kind: String, registeredAt: UnixTime, verdict: Verdict) {
            self.path = path
            self.kind = kind
            self.registeredAt = registeredAt
            self.verdict = verdict
        }
    }

    /// The operations, in the order they were registered.
    public var operations: [Operation]
    /// Who the server runs them as (nil: signed out).
    public var runsAs: String?
    /// When that credential expires, if it does.
    public var credentialExpiresAt: UnixTime?
    /// Why the server could not be asked (no connection, a server without the dry run).
    public var problem: String?

    /// Makes a summary.
    public init(
        operations: [Operation] = [], runsAs: String? = nil, credentialExpiresAt: UnixTime? = nil,
        problem: String? = nil
    ) {
        self.operations = operations
        self.runsAs = runsAs
        self.credentialExpiresAt = credentialExpiresAt
        self.problem = problem
    }
}
