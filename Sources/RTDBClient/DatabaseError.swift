/// An error from the database: a server status (`permission_denied`, `datastale`, …) or a
/// client-side one (`disconnected`, `write_canceled`, `maxretries`, invalid input).
public struct DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status code, as the server or SDK names it.
    public var code: String
    /// What happened.
    public var message: String

    /// Makes an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `CODE: message`, as the SDKs print errors.
    public var description: String { "\(code.uppercased()): \(message)" }
}
