import RTDBCore

/// This connection's onDisconnect operations, each with whether the server would run it now
/// (``Database/onDisconnectReport()``).
///
/// Users lose presence silently when a credential ends or the rules change after an operation
/// was registered; this shows it before the connection ends.
public struct OnDisconnectReport: Sendable, Hashable {
    /// What an operation does when the connection ends.
    public enum Kind: String, Sendable, Hashable {
        /// `onDisconnectSetValue` with a value.
        case set
        /// `onDisconnectUpdateChildValues`.
        case update
        /// `onDisconnectRemoveValue` (or a set of nil).
        case remove
    }

    /// One registered operation.
    public struct Operation: Sendable, Hashable {
        /// Where it writes.
        public var path: String
        /// What it does.
        public var kind: Kind
        /// When this client registered it (local clock).
        public var registeredAt: UnixTime
        /// Whether the server would run it now: every write it holds for it passes the rules (nil:
        /// the server holds none for it).
        public var runs: Bool?
        /// Why not, when it would not.
        public var reason: String?

        /// Makes an operation's line.
        public init(path: String, kind: Kind, registeredAt: UnixTime, runs: Bool?, reason: String? = nil) {
            self.path = path
            self.kind = kind
            self.registeredAt = registeredAt
            self.runs = runs
            self.reason = reason
        }
    }

    /// The operations in the order they were registered.
    public var operations: [Operation]
    /// Who the server runs them as (`uid`, `owner`; nil: signed out).
    public var runsAs: String?
    /// When that credential expires, if it does.
    public var credentialExpiresAt: UnixTime?

    /// Makes a report.
    public init(operations: [Operation], runsAs: String?, credentialExpiresAt: UnixTime?) {
        self.operations = operations
        self.runsAs = runsAs
        self.credentialExpiresAt = credentialExpiresAt
    }
}
