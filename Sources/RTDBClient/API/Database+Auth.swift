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

    var wireCredential: DatabaseToken {
        DatabaseToken(credential: wireText)
    }

    /// The credential as text (what is kept in the persisted store).
    var wireText: String {
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
        repo.setCredential(credential?.wireText)
    }

    /// Takes credentials from `provider` whenever the connection needs one (nil: none).
    ///
    /// It is asked before connecting, when the server says the last one expired or was revoked,
    /// and before a known expiry. A provider's credentials are never written to the persisted
    /// store.
    public func setTokenProvider(_ provider: (any DatabaseTokenProvider)?) {
        // Before the engine starts, it starts with the provider: its first connection is made
        // with a credential, never signed out first.
        let started = withState { state -> Bool in
            if state.repo == nil { state.settings.tokenProvider = provider }
            return state.repo != nil
        }
        if started { repo.setTokenProvider(provider) } else { _ = repo }
    }
}
