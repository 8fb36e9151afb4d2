import RTDBCore

/// A request the rules refused: when, who, where, what, and the rule that refused it.
public struct RuleDenial: Sendable, Hashable {
    /// What was asked.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// A one-time read (a `get`, a REST `GET`).
        case read
        /// A listen or a REST stream.
        case listen
        /// A listen revoked because the rules or the data changed under it.
        case revoke
        /// A set (or a transaction's commit, or a REST `PUT`/`POST`/`DELETE`).
        case set
        /// A multi-location update (`PATCH`).
        case update
        /// An onDisconnect write, registered or run.
        case onDisconnect
    }

    /// When, by the server's clock.
    public var at: UnixTime
    /// Who asked (`uid morgan`, `signed out`).
    public var who: String
    /// Where.
    public var path: Path
    /// What.
    public var operation: Operation
    /// Why, and the rule that refused.
    public var refusal: RuleRefusal

    /// Makes a denial.
    public init(at: UnixTime, who: String, path: Path, operation: Operation, refusal: RuleRefusal) {
        self.at = at
        self.who = who
        self.path = path
        self.operation = operation
        self.refusal = refusal
    }
}
