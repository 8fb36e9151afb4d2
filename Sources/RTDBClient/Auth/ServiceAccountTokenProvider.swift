import Foundation
import JWTKit
import RTDBCore

/// Admin access from a service account, as Google's libraries obtain it: an RS256 assertion
/// signed with the key file's private key, exchanged at its `token_uri` for an OAuth2 access
/// token, sent with `gauth`, and obtained again before it expires.
///
/// With `actingAs`, the token carries the `authvar` override: the rules see that `auth` instead of
/// admin (firebase-admin's `databaseAuthVariableOverride`).
public struct ServiceAccountTokenProvider: DatabaseTokenProvider {
    /// The scopes the database needs.
    public static let scopes = [
        "https://www.googleapis.com/auth/firebase.database",
        "https://www.googleapis.com/auth/userinfo.email",
    ]
    /// How long an assertion is valid (Google takes at most an hour).
    static let assertionLifetime: Duration = .seconds(3_600)

    private let key: ServiceAccountKey
    private let authVariable: JSONValue?
    private let clock: WallClock
    private let cache: TokenCache

    /// Signs with `key`.
    ///
    /// With `actingAs`, the rules see that `auth` (e.g. `{"uid": "alice"}`) instead of admin.
    public init(
        key: ServiceAccountKey, actingAs authVariable: JSONValue? = nil, time: TimeSource = .system
    ) {
        self.key = key
        self.authVariable = authVariable
        self.clock = time.wall
        cache = TokenCache(clock: time.wall)
    }

    /// The kept access token, or a new one.
    public func token(forcingRefresh: Bool) async throws -> DatabaseToken {
        let (key, authVariable, clock) = (key, authVariable, clock)
        return try await cache.token(forcingRefresh: forcingRefresh) {
            let issuedAt = clock()
            let assertion = try await Self.assertion(key: key, issuedAt: issuedAt)
            let answer = try await TokenEndpoint(url: key.tokenURI, name: "the token endpoint").post(form: [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
            ])
            return try Self.accessToken(in: answer, issuedAt: issuedAt, authVariable: authVariable)
        }
    }

    /// The access token in the token endpoint's answer (`access_token`, `expires_in` seconds, an
    /// hour when it says nothing), as the server is given it.
    public static func accessToken(in answer: JSONValue, issuedAt: UnixTime, authVariable: JSONValue?)
        throws(TokenProviderError) -> DatabaseToken
    {
        guard let accessToken = answer["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw TokenProviderError("the token endpoint's answer has no access_token")
        }
        let lifetime = answer["expires_in"]?.intValue.map { Duration.seconds(max(0, $0)) } ?? .seconds(3_600)
        return DatabaseToken(
            value: accessToken, kind: .googleOAuth, authVariable: authVariable, expiresAt: issuedAt + lifetime)
    }

    /// The signed assertion: header `kid` = the key's id; `iss`, `scope`, `aud`, `iat`, `exp`.
    static func assertion(key: ServiceAccountKey, issuedAt: UnixTime) async throws -> String {
        let signingKey: Insecure.RSA.PrivateKey
        do {
            signingKey = try Insecure.RSA.PrivateKey(pem: key.privateKey)
        } catch {
            throw TokenProviderError("the key file's private_key is not an RSA private key in PEM (\(type(of: error)))")
        }
        let keys = JWTKeyCollection()
        let kid = JWKIdentifier(string: key.privateKeyID)
        await keys.add(rsa: signingKey, digestAlgorithm: .sha256, kid: kid)
        let claims = AssertionClaims(
            iss: IssuerClaim(value: key.clientEmail), scope: scopes.joined(separator: " "),
            aud: AudienceClaim(value: key.tokenURI.absoluteString),
            iat: IssuedAtClaim(value: wholeSeconds(issuedAt)),
            exp: ExpirationClaim(value: wholeSeconds(issuedAt + assertionLifetime)))
        return try await keys.sign(claims, kid: kid)
    }
}

/// `time` as a date of whole seconds (the claims are NumericDates; Google reads integers).
private func wholeSeconds(_ time: UnixTime) -> Date {
    Date(timeIntervalSince1970: TimeInterval(time.secondsSince1970))
}

/// The claims of a service account's assertion.
private struct AssertionClaims: JWTPayload {
    var iss: IssuerClaim
    var scope: String
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
