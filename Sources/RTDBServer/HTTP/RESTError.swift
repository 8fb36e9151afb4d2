import Hummingbird
import RTDBCore
import RTDBWire

/// A REST failure: a status and the message sent as `{"error": "..."}`.
struct RESTError: Error {
    var status: HTTPResponse.Status
    var message: String
    /// Header fields the answer carries besides the content type (`Allow` with a 405).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The methods the REST API answers, as a 405's `Allow` lists them.
    static let allowedMethods = "GET, PUT, PATCH, POST, DELETE"

    /// `405` with `Allow` for a method the REST API does not have.
    static func methodNotAllowed(_ method: String) -> RESTError {
        RESTError(
            .methodNotAllowed, "method \(method) is not supported (\(allowedMethods))",
            headers: [.allow: allowedMethods])
    }

    /// Maps a protocol error to the HTTP status Firebase uses for it.
    init(_ error: WireError) {
        switch error.status {
        case .tooBig: self.init(.contentTooLarge, error.message)
        case .permissionDenied: self.init(.unauthorized, error.message)
        case .dataStale: self.init(.preconditionFailed, error.message)
        case .unavailable: self.init(.serviceUnavailable, error.message)
        default: self.init(.badRequest, error.message)
        }
    }

    /// A namespace that does not exist by its name is `404`; one that cannot be opened now, `503`.
    init(_ error: NamespaceError) {
        switch error {
        case .invalidName: self.init(.notFound, error.description)
        case .shuttingDown, .unavailable: self.init(.serviceUnavailable, error.description)
        }
    }

    var response: Response {
        RESTResponder.json(["error": .string(message)], status: status, headers: headers)
    }
}
