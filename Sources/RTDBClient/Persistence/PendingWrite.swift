import RTDBCore

/// A write waiting for the server's acknowledgement (no Firebase SDK shows these).
public struct PendingWrite: Sendable, Hashable, Identifiable {
    /// What kind of write it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `setValue`.
        case set
        /// `updateChildValues`.
        case update
        /// `removeValue` (or setting nil).
        case remove
        /// `runTransactionBlock`.
        case transaction
    }

    /// Where the write stands.
    public enum State: Sendable, Hashable {
        /// Waiting for a connection.
        case queued
        /// Sent; waiting for the server's answer.
        case inFlight
        /// Held back until something changes (an expired credential, say).
        case paused(reason: String)
    }

    /// The write id (increasing; it names the write in the idempotency key).
    public var id: Int
    /// Set, update, remove or transaction.
    public var kind: Kind
    /// Where it writes.
    public var path: String
    /// The size of its data as JSON, in bytes.
    public var bytes: Int
    /// When the app made it.
    public var enqueuedAt: UnixTime
    /// How many times it has been sent.
    public var attempts: Int
    /// Queued, in flight, or paused.
    public var state: State
    /// A named transaction's name (it survives restarts).
    public var transactionName: String?

    /// Makes a pending write (the engine makes them; dashboards and tests show them).
    public init(
        id: Int, kind: Kind, path: String, bytes: Int, enqueuedAt: UnixTime, attempts: Int, state: State,
        transactionName: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.path = path
        self.bytes = bytes
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
        self.state = state
        self.transactionName = transactionName
    }
}
