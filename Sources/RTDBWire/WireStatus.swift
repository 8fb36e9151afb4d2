/// The status of a response (`s`): `ok`, or why the request failed (protocol v5; see
/// docs/wire-protocol.md).
///
/// Statuses are open-ended (a server may send one this code does not name), so this is a wrapper
/// around the text, with the ones both sides use named.
public struct WireStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The status as it is sent.
    public var rawValue: String

    /// Wraps a status as it was sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Success.
    public static let ok = WireStatus(rawValue: "ok")
    /// A conditional put whose hash did not match.
    public static let dataStale = WireStatus(rawValue: "datastale")
    /// Refused by security rules, or a read-only location.
    public static let permissionDenied = WireStatus(rawValue: "permission_denied")
    /// A message, value or result over a size limit.
    public static let tooBig = WireStatus(rawValue: "too_big")
    /// A malformed or unusable credential.
    public static let invalidToken = WireStatus(rawValue: "invalid_token")
    /// A credential past its expiry.
    public static let expiredToken = WireStatus(rawValue: "expired_token")
    /// An action this server does not know.
    public static let unknownAction = WireStatus(rawValue: "unknown_action")
    /// A message that is not a well-formed request.
    public static let invalidRequest = WireStatus(rawValue: "invalid_request")
    /// A path or key that is not allowed.
    public static let invalidPath = WireStatus(rawValue: "invalid_path")
    /// A value that is not allowed (a non-finite number, a bad priority, an unknown server value).
    public static let invalidData = WireStatus(rawValue: "invalid_data")
    /// A write over the server's size limit, as some servers name it.
    public static let writeTooBig = WireStatus(rawValue: "write_too_big")
    /// A query object that cannot be read.
    public static let invalidQuery = WireStatus(rawValue: "invalid_query")
    /// A transaction's put lost with its connection, which the client fails as the SDKs do (a
    /// client-side status; no server sends it).
    public static let disconnect = WireStatus(rawValue: "disconnect")
    /// The namespace cannot store a write now (its disk failed, or its file cannot be opened: out
    /// of descriptors).
    ///
    /// Nothing was applied, and nobody saw it. REST answers it as `503`. A client may send the
    /// write again later (this client keeps it as a dead letter to send again).
    public static let unavailable = WireStatus(rawValue: "unavailable")

    /// A per-connection limit of the server (listens) was reached; the message names it.
    public static let limitExceeded = WireStatus(rawValue: "limit_exceeded")

    // Client-side statuses: no server sends them; the client's errors carry them.

    /// A transaction retried too often (`maxretry`, as the SDKs name it).
    public static let maxRetries = WireStatus(rawValue: "maxretry")
    /// A transaction overridden by a later set at its location (`set`, as the SDKs name it).
    public static let overriddenBySet = WireStatus(rawValue: "set")
    /// A transaction that ended without committing, for no other reason.
    public static let aborted = WireStatus(rawValue: "aborted")
    /// A read once (`getData`) that found no connection within a few seconds (the SDKs'
    /// `client_offline`).
    public static let clientOffline = WireStatus(rawValue: "client_offline")
    /// A dead letter (or other item) asked for by an id that does not exist.
    public static let notFound = WireStatus(rawValue: "not_found")
    /// An operation the client does not do (a transaction retried from the dead letters).
    public static let notSupported = WireStatus(rawValue: "not_supported")
    /// A named transaction with no registered update function.
    public static let unknownTransaction = WireStatus(rawValue: "unknown_transaction")
    /// A write refused because the write queue is at its bound (`persistenceMaxPendingBytes`):
    /// nothing was applied or queued.
    public static let queueFull = WireStatus(rawValue: "queue_full")
    /// A write this device's store could not save (its disk is full or failing): nothing was
    /// applied or queued.
    public static let storeFailed = WireStatus(rawValue: "store_failed")
    /// A failure with nothing more specific to say.
    public static let unknown = WireStatus(rawValue: "unknown")

    /// Whether the request succeeded.
    public var isOK: Bool { self == .ok }

    /// The status as it is sent.
    public var description: String { rawValue }
}
