import Crypto
import Foundation
import RTDBCore
import RTDBWire

/// How the server reads a credential (`auth`/`gauth` on a connection, `Authorization: Bearer`
/// or `?auth=` over REST): the one place that decides who a credential makes a client
/// (docs/security-rules.md#credentials).
///
/// Without a secret it follows the emulator: the claims of any JWT are read unchecked and `owner`
/// is admin; expiry is enforced only when asked. With `--auth-secret` nothing is taken on trust:
/// tokens must be HS256-signed with the secret, carry an `exp` and not be past it, and the admin
/// credential is the secret itself (as a Firebase database secret is, compared byte for byte), not
/// `owner`.
public struct CredentialPolicy: Sendable {
    /// The HS256 key, or nil for the emulator's convention.
    public var secret: String?
    /// Whether expired tokens are refused (always, with a secret).
    public var enforcesExpiry: Bool

    /// Makes a policy.
    public init(secret: String? = nil, enforcesExpiry: Bool = false) {
        self.secret = secret
        self.enforcesExpiry = enforcesExpiry || secret != nil
    }

    /// Who `credential` is, at `now` (ms since the epoch).
    ///
    /// - Throws: ``WireError`` `invalid_token` (unreadable, unsigned or badly signed) or
    ///   `expired_token`, naming the problem.
    public func token(for credential: String, now: UnixTime) throws(WireError) -> AuthToken {
        let token: AuthToken
        if let secret {
            if Self.isSecret(credential, secret) { return .admin }
            try Self.verifySignature(of: credential, secret: secret)
            token = try AuthToken(credential: credential)
            guard !token.isAdmin else {
                throw WireError(
                    status: .invalidToken, message: "'owner' is not admin on a server with --auth-secret")
            }
            guard token.expiresAt != nil else {
                throw WireError(
                    status: .invalidToken,
                    message: "the JWT has no 'exp' claim; a server with --auth-secret takes only tokens that expire")
            }
        } else {
            token = try AuthToken(credential: credential)
        }
        if enforcesExpiry, let expiresAt = token.expiresAt, UnixTime(secondsSince1970: expiresAt) <= now {
            throw WireError(status: .expiredToken, message: "the credential expired at \(expiresAt) (exp)")
        }
        return token
    }

    /// Whether `credential` is the secret itself, byte for byte, in constant time.
    ///
    /// A canonically equivalent spelling is another secret. Digests of both are compared, since swift-crypto
    /// compares digests in constant time and they hide the secret's length.
    private static func isSecret(_ credential: String, _ secret: String) -> Bool {
        SHA256.hash(data: Data(credential.utf8)) == SHA256.hash(data: Data(secret.utf8))
    }

    private static func verifySignature(of credential: String, secret: String) throws(WireError) {
        let parts = credential.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = AuthToken.base64URLDecode(String(parts[0])),
            let headerJSON = try? JSONParser.parse(bytes: header)
        else {
            throw WireError(
                status: .invalidToken, message: "the credential is not a signed JWT (header.payload.signature)")
        }
        guard headerJSON["alg"]?.stringValue == "HS256" else {
            let algorithm = headerJSON["alg"]?.stringValue ?? "none"
            throw WireError(
                status: .invalidToken, message: "the JWT is signed with \(algorithm); this server takes HS256")
        }
        guard let signature = AuthToken.base64URLDecode(String(parts[2])),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8),
                using: SymmetricKey(data: Data(secret.utf8)))
        else {
            throw WireError(status: .invalidToken, message: "the JWT's signature does not match the server's secret")
        }
    }
}

extension CredentialPolicy {
    /// The identity a session's `auth` or `gauth` request signs in as: its credential's, or with
    /// the admin credential, `authVariable` (`authvar`, firebase-admin's
    /// `databaseAuthVariableOverride`) as the `auth` the rules see.
    ///
    /// - Throws: What ``token(for:now:)`` throws; `invalid_token` for an `authvar` without the
    ///   admin credential or that is not a JSON object.
    func sessionToken(for credential: String, actingAs authVariable: JSONValue?, now: UnixTime) throws(WireError)
        -> AuthToken
    {
        let token = try token(for: credential, now: now)
        guard let authVariable else { return token }
        guard token.isAdmin else {
            throw WireError(status: .invalidToken, message: "authvar needs the admin credential")
        }
        guard case .object = authVariable else {
            throw WireError(status: .invalidToken, message: "authvar must be a JSON object")
        }
        return AuthToken(claims: authVariable)
    }
}
