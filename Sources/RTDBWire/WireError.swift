import RTDBCore

/// A protocol error: a wire status code (`invalid_path`, `too_big`, …) and a message for people.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status sent as `s` in the response.
    public var status: WireStatus
    /// The explanation sent as `d`.
    public var message: String

    /// Makes an error.
    public init(status: WireStatus, message: String) {
        self.status = status
        self.message = message
    }

    /// `invalid_request`: the message is not a well-formed request.
    public static func invalidRequest(_ message: String) -> WireError {
        WireError(status: .invalidRequest, message: message)
    }

    /// An error from validating a key, path or value.
    public init(_ error: ValidationError) {
        self.init(status: WireStatus(error), message: error.description)
    }

    /// An error from reading a query object.
    public init(_ error: QueryError) {
        self.init(status: .invalidQuery, message: error.description)
    }

    /// `status: message`.
    public var description: String { "\(status): \(message)" }
}
