import RTDBCore

/// A protocol error: a wire status code (`invalid_path`, `too_big`, …) and a message for people.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status sent as `s` in the response.
    public var status: String
    /// The explanation sent as `d`.
    public var message: String

    /// Makes an error.
    public init(status: String, message: String) {
        self.status = status
        self.message = message
    }

    /// `invalid_request`: the message is not a well-formed request.
    public static func invalidRequest(_ message: String) -> WireError {
        WireError(status: "invalid_request", message: message)
    }

    /// An error from validating a key, path or value.
    public init(_ error: ValidationError) {
        self.init(status: error.wireStatus, message: error.description)
    }

    /// An error from reading a query object.
    public init(_ error: QueryError) {
        self.init(status: "invalid_query", message: error.description)
    }

    /// `status: message`.
    public var description: String { "\(status): \(message)" }
}

/// The response statuses of protocol v5 (rtdb-spec §1.14).
public enum WireStatus {
    /// Success.
    public static let ok = "ok"
    /// A conditional put whose hash did not match.
    public static let dataStale = "datastale"
    /// Refused by security rules, or a read-only location.
    public static let permissionDenied = "permission_denied"
    /// A message, value or result over a size limit.
    public static let tooBig = "too_big"
    /// A malformed or unusable credential.
    public static let invalidToken = "invalid_token"
    /// A credential past its expiry.
    public static let expiredToken = "expired_token"
    /// An action this server does not know.
    public static let unknownAction = "unknown_action"
}
