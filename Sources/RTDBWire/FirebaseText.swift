/// What Firebase's servers say, word for word, where a client can read it.
///
/// Clients, their users' code and the SDKs' own tests compare these texts, so the server says
/// them and nothing else there (shared/reference/official-clients.md). Its own explanations go where a person looks:
/// the server's log, the coverage report's denials, the dashboard.
public enum FirebaseText {
    /// A rules refusal, on the wire (`permission_denied`) and over REST (`401`).
    public static let permissionDenied = "Permission denied"
    /// A REST body that is not JSON (`400`).
    public static let invalidJSON = "Invalid data; couldn't parse JSON object, array, or value."
    /// A credential that cannot be read or verified (REST `401`, wire `invalid_token`).
    public static let unparsableToken = "Could not parse auth token."
    /// A credential past its expiry (wire `expired_token`, also in the revocation `ac`).
    public static let expiredToken = "Auth token is expired."

    /// A REST query ordered by a child (or the value) the rules do not index (`400`).
    public static func indexNotDefined(_ index: String, path: String) -> String {
        #"Index not defined, add ".indexOn": "\#(index)", for path "\#(path)", to the rules"#
    }
}

extension WireError {
    /// A rules refusal, as Firebase words it.
    public static var permissionDenied: WireError {
        WireError(status: .permissionDenied, message: FirebaseText.permissionDenied)
    }

    /// This error as a client hears it: a credential refused (`invalid_token`, `expired_token`)
    /// in Firebase's words, whatever explanation it carries for the log.
    public var firebaseWorded: WireError {
        switch status {
        case .invalidToken: WireError(status: status, message: FirebaseText.unparsableToken)
        case .expiredToken: WireError(status: status, message: FirebaseText.expiredToken)
        case .permissionDenied: .permissionDenied
        default: self
        }
    }
}
