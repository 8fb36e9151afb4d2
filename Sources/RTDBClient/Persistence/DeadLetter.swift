import RTDBCore
import RTDBWire

/// A write the server refused, kept with the server's reason instead of being dropped.
public struct DeadLetter: Sendable, Hashable, Identifiable {
    /// The write as it was queued.
    public var write: PendingWrite
    /// The server's status code (`permission_denied`, `too_big`, `invalid_data`, …).
    public var status: WireStatus
    /// The server's explanation.
    public var reason: String
    /// When the server refused it.
    public var failedAt: UnixTime

    /// Makes a dead letter.
    public init(write: PendingWrite, status: WireStatus, reason: String, failedAt: UnixTime) {
        self.write = write
        self.status = status
        self.reason = reason
        self.failedAt = failedAt
    }

    /// The write's id.
    public var id: Int { write.id }
}
