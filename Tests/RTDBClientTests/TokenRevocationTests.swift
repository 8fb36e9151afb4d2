import Foundation
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

/// A provider's credential revoked by the server (`ac` with `expired_token`): the engine asks the
/// provider for a new one, forcing a refresh, and the connection goes on with its listens.
@Suite struct TokenRevocationTests {
    /// Hands out a token that lasts 60 s, without saying so (the engine learns of its end only
    /// from the server), and records how it was asked.
    final class ForgetfulProvider: DatabaseTokenProvider {
        let secret: String
        let time: TestTime
        let asked = Recorder<Bool>()

        init(secret: String, time: TestTime) {
            self.secret = secret
            self.time = time
        }

        func token(forcingRefresh: Bool) async throws -> DatabaseToken {
            asked.record(forcingRefresh)
            let claims: JSONValue = ["uid": "alice", "exp": .int(time.nowSeconds + 60)]
            return DatabaseToken(value: AuthToken.signedJWT(claims: claims, secret: secret), kind: .user)
        }
    }

    @Test func aRevokedCredentialIsReplacedByAForcedRefresh() async throws {
        let time = TestTime()
        let secret = "secret-\(UUID().uuidString)"
        let rules = try SecurityRules(
            text: #"{"rules": {"users": {"$uid": {".write": "auth.uid === $uid", ".read": true}}}}"#)
        // A heartbeat longer than the time moved: the connection is judged by its credential only.
        let server = try await TestServer.start(heartbeatTimeout: .seconds(600), time: time.source) {
            $0.authSecret = secret
            $0.rules = rules
        }
        let client = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", time: time.source)
        let provider = ForgetfulProvider(secret: secret, time: time)
        client.setTokenProvider(provider)
        try await client.reference(withPath: "users/alice/a").setValue("before")
        let session = try #require(server.server.connections.connections.first?.sessionID)
        #expect(provider.asked.all == [false])

        await time.advance(by: .seconds(61))
        try #require(
            await provider.asked.wait { $0 == [false, true] },
            "asked again, forcing a refresh; asked: \(provider.asked.all)")
        try await client.reference(withPath: "users/alice/b").setValue("after the revocation")
        #expect(server.server.connections.connections.map(\.sessionID) == [session], "the same connection")
        #expect(server.server.connections.connections.map(\.authUID) == ["alice"])
        client.close()
        await server.stop()
    }
}
