import Foundation
import RTDBCore
import Synchronization

/// An end user signed in with email and password through Firebase Auth's REST API
/// (`accounts:signInWithPassword` with the project's Web API key), the ID token refreshed with the
/// refresh token at `securetoken.googleapis.com`, as the SDKs do.
///
/// With `FIREBASE_AUTH_EMULATOR_HOST=host:port` in the environment, the same requests go to the
/// Auth emulator (`http://host:port/identitytoolkit.googleapis.com/…`), as the SDKs send them.
public final class EmailPasswordTokenProvider: DatabaseTokenProvider {
    private let apiKey: String
    private let email: String
    private let password: String
    private let identityToolkit: URL
    private let secureToken: URL
    private let clock: WallClock
    private let cache: TokenCache
    /// The last refresh token, once signed in.
    private let refreshToken = Mutex<String?>(nil)

    /// Signs in as `email` with `password`, using the project's Web API key.
    ///
    /// - Throws: ``TokenProviderError`` if `FIREBASE_AUTH_EMULATOR_HOST` is not `host:port`.
    public init(
        apiKey: String, email: String, password: String,
        environment: [String: String] = ProcessInfo.processInfo.environment, time: TimeSource = .system
    ) throws(TokenProviderError) {
        self.apiKey = apiKey
        self.email = email
        self.password = password
        self.clock = time.wall
        cache = TokenCache(clock: time.wall)
        var (identity, secure) = ("https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com")
        if let emulator = environment["FIREBASE_AUTH_EMULATOR_HOST"], !emulator.isEmpty {
            guard let url = URL(string: "http://\(emulator)"), url.host != nil, url.path.isEmpty else {
                throw TokenProviderError("FIREBASE_AUTH_EMULATOR_HOST must be host:port, not '\(emulator)'")
            }
            (identity, secure) = (
                "http://\(emulator)/identitytoolkit.googleapis.com", "http://\(emulator)/securetoken.googleapis.com"
            )
        }
        let key = TokenEndpoint.formEncoded(apiKey)
        guard let identityURL = URL(string: "\(identity)/v1/accounts:signInWithPassword?key=\(key)"),
            let secureURL = URL(string: "\(secure)/v1/token?key=\(key)")
        else { throw TokenProviderError("cannot make Firebase Auth's URLs from FIREBASE_AUTH_EMULATOR_HOST") }
        identityToolkit = identityURL
        secureToken = secureURL
    }

    /// The kept ID token, a refreshed one, or a new sign-in.
    public func token(forcingRefresh: Bool) async throws -> DatabaseToken {
        try await cache.token(forcingRefresh: forcingRefresh) { [self] in
            if let refresh = refreshToken.withLock({ $0 }), let token = try? await self.refreshed(with: refresh) {
                return token
            }
            return try await signIn()
        }
    }

    private func signIn() async throws -> DatabaseToken {
        let issued = clock()
        let answer = try await TokenEndpoint(url: identityToolkit, name: "Firebase Auth").post(json: [
            "email": .string(email), "password": .string(password), "returnSecureToken": true,
        ])
        return try token(answer, idToken: "idToken", refreshToken: "refreshToken", expiresIn: "expiresIn", issued)
    }

    private func refreshed(with refresh: String) async throws -> DatabaseToken {
        let issued = clock()
        let answer = try await TokenEndpoint(url: secureToken, name: "Firebase Auth's token refresh").post(form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh),
        ])
        return try token(answer, idToken: "id_token", refreshToken: "refresh_token", expiresIn: "expires_in", issued)
    }

    /// The ID token in an answer (the two endpoints name its fields differently).
    private func token(
        _ answer: JSONValue, idToken: String, refreshToken refreshField: String, expiresIn: String, _ issued: UnixTime
    ) throws -> DatabaseToken {
        guard let value = answer[idToken]?.stringValue, !value.isEmpty else {
            throw TokenProviderError("Firebase Auth's answer has no \(idToken)")
        }
        if let refresh = answer[refreshField]?.stringValue { refreshToken.withLock { $0 = refresh } }
        // `expiresIn` is a string of seconds ("3600").
        let seconds = answer[expiresIn].flatMap { $0.stringValue.flatMap { Int64($0) } ?? $0.intValue } ?? 3_600
        return DatabaseToken(value: value, kind: .user, expiresAt: issued + .seconds(max(0, seconds)))
    }
}
