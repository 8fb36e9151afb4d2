/// Hands the engine a credential when it needs one: before a connection's first request, when
/// the server says the last one expired or was revoked (`expired_token`, `ac`), and before a
/// known expiry, as FirebaseDatabase asks Firebase Auth for a token.
///
/// ``ServiceAccountTokenProvider``, ``IDTokenFileProvider``, ``EmailPasswordTokenProvider`` and
/// ``StaticTokenProvider`` (a legacy database secret) come with the engine. Errors a provider
/// throws are shown to users: they must name the problem, never the credential.
public protocol DatabaseTokenProvider: Sendable {
    /// A valid credential; with `forcingRefresh`, not the one handed out last (the server refused
    /// it or said it expired).
    func token(forcingRefresh: Bool) async throws -> DatabaseToken
}

/// A credential that never changes: a legacy database secret, or a token the app manages.
public struct StaticTokenProvider: DatabaseTokenProvider {
    private let stored: DatabaseToken

    /// Hands out `token` every time.
    public init(_ token: DatabaseToken) {
        stored = token
    }

    /// A legacy database secret (Firebase console → Project settings → Service accounts →
    /// Database secrets), sent with `auth`.
    public static func databaseSecret(_ secret: String) -> StaticTokenProvider {
        StaticTokenProvider(DatabaseToken(value: secret, kind: .user))
    }

    /// The same token, refreshed or not.
    public func token(forcingRefresh: Bool) async throws -> DatabaseToken { stored }
}
