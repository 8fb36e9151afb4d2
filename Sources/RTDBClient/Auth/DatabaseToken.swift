import RTDBCore
import RTDBWire

/// A credential as the engine sends it: the token, how the server is to read it, and until when.
///
/// Its description never shows the token: a credential must not reach a log, a recording, the
/// screen or an error message.
public struct DatabaseToken: Sendable, Hashable, CustomStringConvertible {
    /// How the server reads the token.
    public enum Kind: Sendable, Hashable {
        /// A Firebase ID token, a JWT or a legacy database secret, sent with `auth`.
        case user
        /// A Google OAuth2 access token (a service account's), sent with `gauth`: admin access.
        case googleOAuth
    }

    /// The token itself.
    public var value: String
    /// How the server reads it.
    public var kind: Kind
    /// With admin access, the `auth` the rules see instead (`authvar`, what firebase-admin's
    /// `databaseAuthVariableOverride` sends): acting as one of the project's users.
    public var authVariable: JSONValue?
    /// When it stops being valid, if known (a JWT's `exp`, a token endpoint's `expires_in`).
    public var expiresAt: UnixTime?

    /// Makes a token.
    public init(value: String, kind: Kind, authVariable: JSONValue? = nil, expiresAt: UnixTime? = nil) {
        self.value = value
        self.kind = kind
        self.authVariable = authVariable
        self.expiresAt = expiresAt
    }

    /// A token in the form the SDKs send: `owner` (the emulator's admin) with `gauth`, any other
    /// with `auth`, its expiry read from a JWT's `exp` when it has one.
    public init(credential: String) {
        let isOwner = CodeUnitString.equal(credential, AuthToken.ownerCredential)
        let expiry = isOwner ? nil : (try? AuthToken(credential: credential))?.expiresAt
        self.init(
            value: credential, kind: isOwner ? .googleOAuth : .user,
            expiresAt: expiry.map(UnixTime.init(secondsSince1970:)))
    }

    /// Shows the kind and expiry, never the token.
    public var description: String {
        let override = authVariable.map { " as uid \($0["uid"]?.stringValue ?? "(none)")" } ?? ""
        let expiry = expiresAt.map { ", expires \($0)" } ?? ""
        return "DatabaseToken(\(kind == .user ? "auth" : "gauth")\(override)\(expiry), \(value.utf8.count) bytes)"
    }

    /// The request that sends it.
    var request: ClientRequest {
        switch kind {
        case .user: return .auth(credential: value, authVariable: authVariable)
        case .googleOAuth: return .gauth(credential: value, authVariable: authVariable)
        }
    }
}
