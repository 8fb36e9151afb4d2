/// Why query parameters were refused (wire `q` objects, REST parameters, or API calls).
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the parameter.
    public var message: String

    /// Makes an error with a message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
