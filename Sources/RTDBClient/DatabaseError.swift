import RTDBWire

/// An error from the database: a server status (`permission_denied`, `datastale`, …) or a
/// client-side one (`disconnect`, `maxretry`, invalid input), from one vocabulary:
/// ``WireStatus``.
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status, as the server or the SDKs name it.
    public var code: WireStatus
    /// What happened.
    public var message: String

    /// Makes an error.
    public init(code: WireStatus, message: String) {
        self.code = code
        self.message = message
    }

    /// `CODE: message`, as the SDKs print errors.
    public var description: String { "\(code.rawValue.uppercased()): \(message)" }
}
