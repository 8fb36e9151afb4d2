import RTDBCore
import RTDBWire

/// A credential for the database connection.
public enum DatabaseCredential: Sendable, Hashable {
    /// A Firebase ID token (or any JWT the server accepts).
    case idToken(String)
    /// An emulator-style unsigned token for a user id (what `connectDatabaseEmulator` users send).
    case emulatorUser(uid: String)
    /// Admin access (`owner`, as the SDKs send to emulators).
    case admin

    var wireCredential: String {
        switch self {
        case .idToken(let token): return token
        case .emulatorUser(let uid):
            // No `exp`: the client makes this token itself, so it never needs refreshing.
            let id = JSONValue.string(uid)
            return AuthTokenCredential.unsignedJWT(claims: ["uid": id, "sub": id, "user_id": id])
        case .admin: return "owner"
        }
    }
}

typealias AuthTokenCredential = AuthToken

extension Database {
    /// Authenticates the connection (nil signs out); a change is sent on the live connection and
    /// restored first on every reconnect.
    public func setCredential(_ credential: DatabaseCredential?) {
        let repo = repo
        let wire = credential?.wireCredential
        repo.queue.async {
            repo.connection.setAuth(wire)
            repo.persistCredential(wire)
        }
    }
}
