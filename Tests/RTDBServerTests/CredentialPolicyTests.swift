import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// Who a credential makes a client: the emulator's convention, or HS256 with `--auth-secret`.
struct CredentialPolicyTests {
    static let now = UnixTime(millisecondsSince1970: 1_800_000_000_000)
    static let secret = "s3cret-for-tests"
    static let claims: JSONValue = ["uid": "morgan", "exp": .int(now.secondsSince1970 + 3_600)]
    /// Claims that expire in an hour from the real clock (for a real server).
    static var claimsNow: JSONValue {
        ["uid": "morgan", "exp": .int(Int64(Date().timeIntervalSince1970) + 3_600)]
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var secret: String?
        var credential: String
        /// The uid it makes, `admin`, or the error status.
        var outcome: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "emulator: an unsigned token", credential: AuthToken.unsignedJWT(claims: claims), outcome: "morgan"),
        Case(name: "emulator: owner is admin", credential: "owner", outcome: "admin"),
        Case(name: "emulator: not a JWT", credential: "hello", outcome: "invalid_token"),
        Case(
            name: "emulator: a signed token is read too", credential: AuthToken.signedJWT(claims: claims, secret: "x"),
            outcome: "morgan"),
        Case(
            name: "secret: signed with it", secret: secret,
            credential: AuthToken.signedJWT(claims: claims, secret: secret), outcome: "morgan"),
        Case(
            name: "secret: signed with another", secret: secret,
            credential: AuthToken.signedJWT(claims: claims, secret: "other"), outcome: "invalid_token"),
        Case(
            name: "secret: unsigned", secret: secret, credential: AuthToken.unsignedJWT(claims: claims),
            outcome: "invalid_token"),
        Case(name: "secret: owner is not admin", secret: secret, credential: "owner", outcome: "invalid_token"),
        Case(name: "secret: the secret is admin", secret: secret, credential: secret, outcome: "admin"),
        Case(
            name: "secret: expired", secret: secret,
            credential: AuthToken.signedJWT(
                claims: ["uid": "morgan", "exp": .int(now.secondsSince1970 - 1)], secret: secret),
            outcome: "expired_token"),
        Case(
            name: "secret: a signed token without exp never expires, so it is refused", secret: secret,
            credential: AuthToken.signedJWT(claims: ["uid": "morgan"], secret: secret), outcome: "invalid_token"),
        Case(
            name: "secret: a spelling canonically equivalent to the secret is not it", secret: "caf\u{E9}",
            credential: "cafe\u{301}", outcome: "invalid_token"),
        Case(
            name: "secret: the decomposed secret is admin only as itself", secret: "cafe\u{301}",
            credential: "cafe\u{301}", outcome: "admin"),
        Case(
            name: "secret: a payload changed after signing", secret: secret,
            credential: tampered(AuthToken.signedJWT(claims: claims, secret: secret)), outcome: "invalid_token"),
    ]

    /// The token with its payload swapped for one claiming another user, signature kept.
    static func tampered(_ token: String) -> String {
        let parts = token.split(separator: ".").map(String.init)
        let forged = AuthToken.unsignedJWT(claims: ["uid": "admin-wannabe", "exp": .int(now.secondsSince1970 + 3_600)])
        return parts[0] + "." + forged.split(separator: ".")[1] + "." + parts[2]
    }

    @Test(arguments: cases)
    func outcome(_ test: Case) {
        let policy = CredentialPolicy(secret: test.secret)
        let outcome: String
        do {
            let token = try policy.token(for: test.credential, now: Self.now)
            outcome = token.isAdmin ? "admin" : token.uid ?? "-"
        } catch {
            outcome = error.status.rawValue
        }
        #expect(outcome == test.outcome)
    }

    /// Over a real server: a client with a signed ID token writes under the rules, a forged one is
    /// refused, and over REST the secret is the admin credential.
    @Test func aServerWithASecretTakesOnlyItsTokens() async throws {
        let server = try await TestServer.start(configure: { $0.authSecret = Self.secret })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let forged = try await client.call(
            .auth(credential: AuthToken.signedJWT(claims: ["uid": "morgan"], secret: "guess"), authVariable: nil))
        #expect(forged.status == .invalidToken)
        #expect(forged.data.stringValue == "Could not parse auth token.", "Firebase's words, not the explanation")
        let signed = try await client.call(
            .auth(credential: AuthToken.signedJWT(claims: Self.claimsNow, secret: Self.secret), authVariable: nil))
        #expect(signed.status == .ok)
        #expect(server.server.connections.connections.first?.authUID == "morgan")
        #expect(
            try await http("GET", "/.json", port: server.port, headers: ["Authorization": "Bearer owner"]).status == 401
        )
        #expect(try await http("GET", "/.json?auth=\(Self.secret)", port: server.port).status == 200)
        await client.close()
        await server.stop()
    }
}
