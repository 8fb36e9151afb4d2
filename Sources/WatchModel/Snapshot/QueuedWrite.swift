import RTDBCore

/// A write of this device's not yet acknowledged, or one the server refused.
public struct QueuedWrite: Sendable, Equatable, Identifiable {
    /// Where the write stands.
    public enum State: Sendable, Equatable {
        /// Waiting for a connection.
        case queued
        /// Sent; waiting for the server's answer.
        case inFlight
        /// Held back until something changes (an expired credential, say).
        case paused(reason: String)
        /// The server refused it (`status`: `permission_denied`, …) and said why: a dead letter.
        case refused(status: String, reason: String)
    }

    /// The write id.
    public var id: Int
    /// `set`, `update`, `remove`, `transaction`, or `txn NAME` for a named transaction.
    public var operation: String
    /// Where it writes.
    public var path: String
    /// Its data's size as JSON, in bytes.
    public var bytes: Int
    /// When the app made it (the device's clock).
    public var enqueuedAt: UnixTime
    /// How many times it has been sent.
    public var attempts: Int
    /// Where it stands.
    public var state: State

    /// The server's status and reason, when it refused the write.
    public var refusal: (status: String, reason: String)? {
        guard case .refused(let status, let reason) = state else { return nil }
        return (status, reason)
    }

    /// Makes a write's snapshot.
    public init(
        id: Int, operation: String, path: String, bytes: Int = 0, enqueuedAt: UnixTime = .epoch, attempts: Int = 0,
        state: State = .queued
    ) {
        self.id = id
        self.operation = operation
        self.path = path
        self.bytes = bytes
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
        self.state = state
    }
}
