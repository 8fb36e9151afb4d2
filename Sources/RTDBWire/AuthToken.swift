import Crypto
import Foundation
import RTDBCore

/// Reads and makes the credentials clients send in `auth`/`gauth`
/// (docs/wire-protocol.md#credentials).
///
/// Like the Firebase emulator, the server does not verify signatures: it reads the claims of any
/// JWT (signed or `alg: none`) and treats the literal `owner` as admin. Expiry (`exp`, seconds
/// since the epoch) is reported, and enforced only when the server is asked to.
public struct AuthToken: Sendable, Hashable {
    /// The token's claims (`uid`/`sub`/`user_id`, `exp`, and any custom claims).
    public var claims: JSONValue
    /// Whether this is the admin credential (`owner`).
    public var isAdmin: Bool

    /// The admin credential the emulator-style SDKs send.
    public static let ownerCredential = "owner"

    /// The admin identity.
    public static let admin = AuthToken(claims: ["admin": true], isAdmin: true)

    /// Makes a token from claims.
    public init(claims: JSONValue, isAdmin: Bool = false) {
        self.claims = claims
        self.isAdmin = isAdmin
    }

    /// Reads a credential: `owner`, or a JWT whose payload is a JSON object.
    ///
    /// - Throws: ``WireError`` with `invalid_token` naming what is wrong.
    public init(credential: String) throws(WireError) {
        if CodeUnitString.equal(credential, AuthToken.ownerCredential) {
            self = .admin
            return
        }
        let parts = credential.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2 else {
            throw WireError(status: .invalidToken, message: "the credential is not a JWT (expected 3 parts)")
        }
        guard let payload = AuthToken.base64URLDecode(String(parts[1])),
            let claims = try? JSONParser.parse(bytes: payload), case .object = claims
        else {
            throw WireError(status: .invalidToken, message: "the JWT payload is not a base64url JSON object")
        }
        self.init(claims: claims)
    }

    /// The user id: `uid`, else `user_id`, else `sub`; nil for admin and anonymous claims.
    public var uid: String? {
        if isAdmin { return nil }
        return claims["uid"]?.stringValue ?? claims["user_id"]?.stringValue ?? claims["sub"]?.stringValue
    }

    /// The expiry in seconds since the epoch, if the token has one.
    public var expiresAt: Int64? { claims["exp"]?.intValue }

    /// An unsigned emulator-style JWT (`alg: none`) with these claims, as the SDKs build for
    /// `connectDatabaseEmulator` with a mock user token.
    public static func unsignedJWT(claims: JSONValue) -> String {
        let header: JSONValue = ["alg": "none", "type": "JWT"]
        return base64URLEncode(Array(header.jsonString.utf8)) + "." + base64URLEncode(Array(claims.jsonString.utf8))
            + "."
    }

    /// An unsigned emulator JWT for a user id, issued at `issuedAt` and valid for `lifetime` seconds.
    public static func emulatorToken(uid: String, issuedAt: Int64 = 0, lifetime: Int64 = 3600) -> String {
        unsignedJWT(claims: [
            "uid": .string(uid), "sub": .string(uid), "user_id": .string(uid), "iat": .int(issuedAt),
            "exp": .int(issuedAt + lifetime),
        ])
    }

    /// An HS256-signed JWT with these claims, as a server with `--auth-secret` takes them (and as
    /// a backend that shares the secret would mint them).
    public static func signedJWT(claims: JSONValue, secret: String) -> String {
        let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
        let signingInput =
            base64URLEncode(Array(header.jsonString.utf8)) + "." + base64URLEncode(Array(claims.jsonString.utf8))
        let signature = HMAC<SHA256>.authenticationCode(
            for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return signingInput + "." + base64URLEncode(Array(signature))
    }

    static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text (padding optional), or nil.
    public static func base64URLDecode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
