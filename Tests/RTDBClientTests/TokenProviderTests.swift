import Foundation
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

/// The credentials Google's own tools take, obtained from local processes speaking the real
/// formats (Tests/Interop/google_stand_in.py) and sent to a real server on loopback.
///
/// The server runs with `--auth-secret`. A real database checks an OAuth2 access token with
/// Google; ours takes its secret as the admin credential, so the stand-in issues the secret as the
/// access token. What is checked is what the client sent and what the server made of it.
@Suite(.enabled(if: InteropPython.required, "needs .venv (made by .ci/run); required when CI=true"))
struct TokenProviderTests {
    static let secret = "server-secret-\(UUID().uuidString)"
    /// Each user may write only under their own uid; nobody but admin anywhere else.
    static let rules = #"{"rules": {"users": {"$uid": {".write": "auth.uid === $uid", ".read": true}}}}"#

    /// A server with the secret and the rules, on `time` (moved only by the test).
    ///
    /// Its heartbeat is far longer than any move of time here: a move of a minute at once would otherwise let its heartbeat end a session whose pong had not come yet
    /// on a loaded machine, and the client's reconnect would wait on a clock nobody moves (a
    /// clean-clone CI run hung in `anIDTokenFileIsReadAgainWhenTheServerSaysTheTokenExpired`).
    private static func server(time: TestTime = TestTime()) async throws -> TestServer {
        let rules = try SecurityRules(text: rules)
        return try await TestServer.start(heartbeatTimeout: .seconds(86_400), time: time.source) {
            $0.authSecret = secret
            $0.rules = rules
        }
    }

    /// A client on `time` when the test moves it; else on real time, so that a retry (a token
    /// request that timed out on a loaded machine, a reconnect) is not left waiting for a clock
    /// nobody moves (a CI run hung here with three such tests).
    private static func client(_ server: TestServer, time: TestTime? = nil) -> Database {
        let url = "http://127.0.0.1:\(server.port)?ns=demo"
        guard let time else { return Database(url: url) }
        return Database(url: url, time: time.source)
    }

    /// The status a write ended with (`ok` or the server's refusal), or that it had none after
    /// two minutes of real time, with the connection's phase: a test that would hang fails
    /// instead, saying where it stood.
    ///
    /// With `time` (a client on the test's clock), each 20 s without an answer moves that clock
    /// a second: on a loaded machine a token request or a connect can fail and wait to be tried
    /// again on a clock nobody else moves (clean-clone CI runs hung and failed here).
    private static func write(
        _ database: Database, _ path: String, _ value: String, nudging time: TestTime? = nil
    ) async -> String {
        let outcome = Recorder<String>()
        database.reference(withPath: path).setValue(value) { error, _ in
            outcome.record(error.map { "\($0)" } ?? "ok")
        }
        for _ in 0..<6 {
            if await outcome.wait(timeout: .seconds(20), until: { !$0.isEmpty }) { return outcome.last ?? "" }
            if let time { await time.advance(by: .seconds(1)) }
        }
        return "no answer after two minutes; the connection: \(database.connectionStatus.phase)"
    }

    @Test func aServiceAccountSignsItsAssertionAndRenewsTheTokenWithoutDroppingTheConnection() async throws {
        let time = TestTime()
        let server = try await Self.server(time: time)
        // Tokens that last 20 s: renewed halfway (a credential under ten minutes is renewed at
        // half its life, else five minutes ahead), so the test moves time 10 s, not an hour.
        let standIn = try await GoogleStandIn.start(accessToken: Self.secret, lifetime: 20)
        defer { standIn.stop() }
        let client = Self.client(server, time: time)
        let key = try ServiceAccountKey(contentsOf: standIn.keyFile)
        client.setTokenProvider(ServiceAccountTokenProvider(key: key, time: time.source))

        #expect(await Self.write(client, "admin-only/a", "written as admin", nudging: time) == "ok")
        let assertion = try #require(standIn.requests.first)
        #expect(assertion["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        #expect(assertion["content_type"] == "application/x-www-form-urlencoded")
        #expect(assertion["status"] == 200, "the stand-in verified the RS256 signature and claims: \(assertion)")
        let session = try #require(server.server.connections.connections.first?.sessionID)
        let seen = Recorder<String>()
        client.reference(withPath: "users").observe(.value) { _ in seen.record("value") }
        #expect(await seen.wait { $0.count == 1 })

        // Halfway through its life a new token is obtained and sent on the live connection: the
        // same session, its listen still there, writes still admin.
        await time.advance(by: .seconds(10) + .milliseconds(1))
        #expect(try await eventually { standIn.requests.count == 2 })
        #expect(standIn.requests.last?["status"] == 200)
        #expect(await Self.write(client, "admin-only/b", "still admin", nudging: time) == "ok")
        #expect(server.server.connections.connections.map(\.sessionID) == [session])
        try await client.reference(withPath: "users/x").setValue("seen by the listen")
        #expect(await seen.wait { $0.count == 2 })
        client.close()
        await server.stop()
    }

    @Test func actingAsAUidTheRulesSeeThatUser() async throws {
        let server = try await Self.server()
        let standIn = try await GoogleStandIn.start(accessToken: Self.secret)
        defer { standIn.stop() }
        let client = Self.client(server)
        let key = try ServiceAccountKey(contentsOf: standIn.keyFile)
        client.setTokenProvider(ServiceAccountTokenProvider(key: key, actingAs: ["uid": "alice"]))

        #expect(await Self.write(client, "users/alice/name", "Alice") == "ok")
        let refusal = await Self.write(client, "users/bob/name", "not Alice's")
        #expect(refusal.hasPrefix("PERMISSION_DENIED"), "\(refusal)")
        #expect(
            try await until(server.server.connections.changes) {
                server.server.connections.connections.map(\.authUID) == ["alice"]
            })
        client.close()
        await server.stop()
    }

    @Test func aRefusedAssertionIsNamedAndTheKeyNeverShown() async throws {
        let server = try await Self.server()
        let standIn = try await GoogleStandIn.start(accessToken: Self.secret)
        defer { standIn.stop() }
        // A key id that is not the key's: Google refuses the assertion.
        var members = try #require(
            try JSONParser.parse(bytes: Data(contentsOf: URL(fileURLWithPath: standIn.keyFile))).objectValue)
        members["private_key_id"] = "not-this-key"
        let key = try ServiceAccountKey(json: .object(members))
        // The provider is set before the engine's first use: no connection is ever opened
        // without its credential (one used to open signed out, then restart).
        let transport = InterceptingTransport()
        let client = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", transport: transport)
        client.setTokenProvider(ServiceAccountTokenProvider(key: key))

        var reason = ""
        #expect(
            try await until(client.changes) {
                guard case .waitingToRetry(_, _, let why) = client.connectionStatus.phase else { return false }
                reason = why
                return true
            })
        #expect(reason.contains("invalid_grant: kid is not the key's private_key_id"), "\(reason)")
        #expect(reason.contains("the token endpoint (http://127.0.0.1:\(standIn.port)/token)"), "\(reason)")
        #expect(!reason.contains("PRIVATE KEY") && !reason.contains("eyJ"), "no key, no assertion: \(reason)")
        #expect(transport.connectionCount == 0, "nothing connects without a credential")
        #expect(server.server.connections.connections.isEmpty)
        client.close()
        await server.stop()
    }

    @Test func emailAndPasswordSignInThroughTheAuthEmulatorHost() async throws {
        let server = try await Self.server()
        let standIn = try await GoogleStandIn.start(
            accessToken: "unused", idTokenSecret: Self.secret, users: ["alice@example.com:hunter2:alice"])
        defer { standIn.stop() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": standIn.host]
        let client = Self.client(server)
        client.setTokenProvider(
            try EmailPasswordTokenProvider(
                apiKey: "stand-in-api-key", email: "alice@example.com", password: "hunter2", environment: environment))
        #expect(await Self.write(client, "users/alice/name", "Alice") == "ok")
        let signIn = try #require(standIn.requests.first)
        #expect(signIn["path"] == "signInWithPassword" && signIn["key"] == "stand-in-api-key")
        #expect(signIn["returnSecureToken"] == true && signIn["status"] == 200)
        #expect(await Self.write(client, "users/bob/name", "not hers").hasPrefix("PERMISSION_DENIED"))
        client.close()

        // A wrong password: Firebase Auth's reason, and never the password.
        let refused = Self.client(server)
        refused.setTokenProvider(
            try EmailPasswordTokenProvider(
                apiKey: "stand-in-api-key", email: "alice@example.com", password: "wrong-pass", environment: environment
            ))
        var reason = ""
        #expect(
            try await until(refused.changes) {
                guard case .waitingToRetry(_, _, let why) = refused.connectionStatus.phase else { return false }
                reason = why
                return true
            })
        #expect(reason.contains("Firebase Auth") && reason.contains("INVALID_LOGIN_CREDENTIALS"), "\(reason)")
        #expect(!reason.contains("wrong-pass"))
        refused.close()
        #expect(throws: TokenProviderError.self) {
            try EmailPasswordTokenProvider(
                apiKey: "k", email: "e", password: "p", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "a b/c"])
        }
        await server.stop()
    }

    @Test func anIDTokenFileIsReadAgainWhenTheServerSaysTheTokenExpired() async throws {
        let time = TestTime()
        let server = try await Self.server(time: time)
        let file = temporaryDirectory().appendingPathComponent("id-token").path
        func token(expiringIn seconds: Int64) -> String {
            AuthToken.signedJWT(claims: ["uid": "alice", "exp": .int(time.nowSeconds + seconds)], secret: Self.secret)
        }
        try (token(expiringIn: 60) + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let client = Self.client(server, time: time)
        client.setTokenProvider(IDTokenFileProvider(path: file))
        #expect(await Self.write(client, "users/alice/a", "first", nudging: time) == "ok")

        // Something else refreshes the file; the client reads it when the old token is spent.
        try token(expiringIn: 3_600).write(toFile: file, atomically: true, encoding: .utf8)
        await time.advance(by: .seconds(61))
        #expect(await Self.write(client, "users/alice/b", "after the expiry", nudging: time) == "ok")
        #expect(
            try await until(server.server.connections.changes) {
                server.server.connections.connections.map(\.authUID) == ["alice"]
            })
        client.close()
        await server.stop()
    }

    @Test func aDatabaseSecretIsSentWithAuthAndIsAdmin() async throws {
        let server = try await Self.server()
        let client = Self.client(server)
        client.setTokenProvider(StaticTokenProvider.databaseSecret(Self.secret))
        #expect(await Self.write(client, "admin-only/c", "written with the secret") == "ok")
        #expect(!"\(DatabaseToken(value: Self.secret, kind: .user))".contains(Self.secret), "never printed")
        client.close()
        await server.stop()
    }
}
