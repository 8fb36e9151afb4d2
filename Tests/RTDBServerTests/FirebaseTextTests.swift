import Foundation
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

/// What a client reads is what Firebase says, word for word (official-clients.md).
///
/// Code that compares Firebase's texts works the same against this server. The explanation stays in the
/// server's log and the coverage report.
@Suite struct FirebaseTextTests {
    static let rules = #"""
        {"rules": {"users": {"$uid": {".read": "auth != null", ".write": "auth.uid == $uid",
          "age": {".validate": "newData.isNumber()"}}}}}
        """#

    static func bearer(_ uid: String) -> [String: String] {
        ["Authorization": "Bearer " + AuthToken.emulatorToken(uid: uid, issuedAt: UnixTime.now().secondsSince1970)]
    }

    @Test func aRulesRefusalIsPermissionDeniedOnTheWireAndOverREST() async throws {
        let rules = try SecurityRules(text: Self.rules)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let signedOut = try await client.call(.put(path: Path("users/sam/name"), data: "x", hash: nil))
        #expect(signedOut.status == .permissionDenied && signedOut.data == "Permission denied")
        _ = try await client.call(
            .auth(
                credential: AuthToken.emulatorToken(uid: "sam", issuedAt: UnixTime.now().secondsSince1970),
                authVariable: nil))
        let invalid = try await client.call(.put(path: Path("users/sam/age"), data: "old", hash: nil))
        #expect(invalid.status == .permissionDenied && invalid.data == "Permission denied", "a .validate refusal too")
        let listen = try await client.call(.listen(path: Path("users"), query: QueryParams(), tag: nil, hash: ""))
        #expect(listen.status == .permissionDenied && listen.data == "Permission denied")

        let rest = try await http(
            "PUT", "/users/sam/name.json", port: server.port, body: "\"x\"", headers: Self.bearer("morgan"))
        #expect(rest.status == 401 && rest.json == ["error": "Permission denied"], "\(rest.body)")
        let read = try await http("GET", "/users.json", port: server.port)
        #expect(read.status == 401 && read.json == ["error": "Permission denied"], "\(read.body)")
        // The explanation is kept where a person looks: the coverage report's denials.
        let report = try await http("GET", "/.inspect/coverage.json", port: server.port)
        #expect(report.body.contains("auth.uid == $uid"))
        await server.stop()
    }

    @Test func badBodiesAndCredentialsGetFirebasesWords() async throws {
        let server = try await TestServer.start(configure: { $0.authSecret = "s3cret" })
        let body = try await http(
            "PUT", "/a.json", port: server.port, body: "{not json", headers: ["Authorization": "Bearer s3cret"])
        #expect(
            body.status == 400 && body.json == ["error": "Invalid data; couldn't parse JSON object, array, or value."])
        let forged = try await http("GET", "/a.json?auth=not.a.token", port: server.port)
        #expect(forged.status == 401 && forged.json == ["error": "Could not parse auth token."], "\(forged.body)")
        let expired = AuthToken.signedJWT(claims: ["uid": "m", "exp": 1_000], secret: "s3cret")
        let late = try await http("GET", "/a.json?auth=\(expired)", port: server.port)
        #expect(late.status == 401 && late.json == ["error": "Auth token is expired."], "\(late.body)")
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let wire = try await client.call(.auth(credential: expired, authVariable: nil))
        #expect(wire.status == .expiredToken && wire.data == "Auth token is expired.")
        await server.stop()
    }
}
