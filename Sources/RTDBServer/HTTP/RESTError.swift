import Hummingbird
import RTDBCore
import RTDBWire

/// A REST failure: a status and the message sent as `{"error": "..."}`.
struct RESTError: Error {
    var status: HTTPResponse.Status
    var message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Maps a protocol error to the HTTP status Firebase uses for it.
    init(_ error: WireError) {
        switch error.status {
        case .tooBig: self.init(.contentTooLarge, error.message)
        case .permissionDenied: self.init(.unauthorized, error.message)
        case .dataStale: self.init(.preconditionFailed, error.message)
        default: self.init(.badRequest, error.message)
        }
    }

    var response: Response {
        RESTResponder.json(["error": .string(message)], status: status)
    }
}
