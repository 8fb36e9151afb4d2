import Foundation
import RTDBCore
import RTDBRules
import RTDBTestSupport
import RTDBWire
import Testing

@testable import RTDBClient

/// The credential on disk, and writes paused by a credential that expired while offline.
@Suite struct CredentialPersistenceTests {
    static func token(uid: String, expiresInSeconds: Int64, now: Int64 = Int64(Date().timeIntervalSince1970)) -> String
    {
        AuthToken.unsignedJWT(claims: [
            "uid": .string(uid), "sub": .string(uid), "iat": .int(now), "exp": .int(now + expiresInSeconds),
        ])
    }

    @Test func aCredentialThatExpiresOfflinePausesWritesUntilANewOne() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // One injected time for the server and the client: the credential expires when the test
        // moves time on, not when a busy machine happens to get there, and no timer fires unless
        // the test says so.
        let time = TestTime()
        let server = try await TestServer.start(
            time: time.source, configure: { $0.enforcesTokenExpiry = true })
        let port = server.port
        func signedInUIDs() -> [String?] { server.server.connections.connections.map(\.authUID) }
        func client() -> Database {
            let database = Database(url: "http://127.0.0.1:\(port)?ns=demo", time: time.source)
            database.persistenceDirectory = directory
            database.isPersistenceEnabled = true
            return database
        }

        let first = client()
        first.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 60, now: time.nowSeconds)))
        try await first.reference(withPath: "notes/first").setValue("signed in")
        #expect(signedInUIDs() == ["morgan"])
        first.close()
        // (Its session must be gone first, or it would pass for the next run's below.)
        #expect(try await until(server.server.connections.changes) { signedInUIDs().isEmpty })

        // A new run signs in with the saved credential before the app says anything.
        let second = client()
        second.reference(withPath: "warmup").keepSynced(true)
        #expect(
            try await until(second.changes, server.server.connections.changes) {
                second.connectionStatus.phase.isConnected && signedInUIDs() == ["morgan"]
            },
            "the credential survived the restart")
        second.goOffline()
        second.reference(withPath: "notes/second").setValue("written offline", andPriority: nil)
        #expect(try await until(server.server.connections.changes) { signedInUIDs().isEmpty })
        await time.advance(by: .seconds(61))  // the credential expires meanwhile
        second.goOnline()
        #expect(
            try await until(second.changes) {
                if case .paused(let reason) = second.pendingWrites.first?.state { return reason.contains("expired") }
                return false
            })
        #expect(
            try await until(server.server.connections.changes) { signedInUIDs() == [nil] },
            "connected, and the expired credential was not sent")
        await second.barrier()
        #expect(signedInUIDs() == [nil])
        #expect(try await http("GET", "/notes/second.json", port: port).json == .null, "the write waits")

        // Signing in again sends it.
        second.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 3_600, now: time.nowSeconds)))
        await second.waitForPendingWrites()
        let stored = try await http("GET", "/notes/second.json", port: port)
        #expect(stored.json == "written offline", "\(stored.body) \(second.pendingWrites) \(second.deadLetters)")
        #expect(signedInUIDs() == ["morgan"])
        second.close()
        await server.stop()
    }

    /// Was: writes restored from disk went out at the first connection before the credential, so
    /// rules that need a user refused the whole queue (dead letters, "signed out").
    @Test func aQueueRestoredFromDiskIsSentAfterTheCredential() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try SecurityRules(text: #"{"rules": {"notes": {"$uid": {".write": "auth.uid == $uid"}}}}"#)
        let server = try await TestServer.start(configure: { $0.rules = rules })
        func client() -> Database {
            let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
            database.persistenceDirectory = directory
            database.isPersistenceEnabled = true
            return database
        }
        let first = client()
        first.goOffline()
        first.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 3_600)))
        for index in 0..<3 { first.reference(withPath: "notes/morgan/\(index)").setValue(index, andPriority: nil) }
        #expect(first.pendingWrites.count == 3)
        first.close()

        // The next run, as an app starts: it signs in, and the queue on disk goes out.
        let second = client()
        second.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 3_600)))
        await second.waitForPendingWrites()
        #expect(second.deadLetters.isEmpty, "\(second.deadLetters)")
        let stored = try await http("GET", "/notes/morgan.json?auth=owner", port: server.port)
        #expect(stored.json == [0, 1, 2], "\(stored.body)")
        second.close()

        // A run that only restores the saved credential sends its queue the same way.
        let third = client()
        third.goOffline()
        third.reference(withPath: "notes/morgan/3").setValue(3, andPriority: nil)
        third.close()
        let fourth = client()
        fourth.goOnline()
        await fourth.waitForPendingWrites()
        #expect(fourth.deadLetters.isEmpty, "\(fourth.deadLetters)")
        #expect(try await http("GET", "/notes/morgan/3.json?auth=owner", port: server.port).json == 3)
        fourth.close()
        await server.stop()
    }

    @Test func aWriteRightAfterANewCredentialWaitsForTheServersAnswer() async throws {
        let server = try await TestServer.start(configure: { $0.enforcesTokenExpiry = true })
        let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        database.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 60)))
        try await database.reference(withPath: "notes/first").setValue("signed in")

        // On the live connection: a credential the server will refuse, and at once a write. Sent
        // before the answer, the write would be judged under a credential the server refuses.
        database.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: -60)))
        database.reference(withPath: "notes/second").setValue("after the new credential", andPriority: nil)
        #expect(
            try await until(database.changes) {
                if case .paused(let reason) = database.pendingWrites.first?.state { return reason.contains("refused") }
                return false
            }, "\(database.pendingWrites)")
        #expect(try await http("GET", "/notes/second.json", port: server.port).json == .null, "the write waits")

        database.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 60)))
        await database.waitForPendingWrites()
        #expect(try await http("GET", "/notes/second.json", port: server.port).json == "after the new credential")
        database.close()
        await server.stop()
    }

    @Test func theServerRefusesAnExpiredCredentialWhenAskedTo() async throws {
        let server = try await TestServer.start(configure: { $0.enforcesTokenExpiry = true })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let expired = try await client.call(
            .auth(credential: Self.token(uid: "x", expiresInSeconds: -10), authVariable: nil))
        #expect(expired.status == .expiredToken)
        let fresh = try await client.call(
            .auth(credential: Self.token(uid: "x", expiresInSeconds: 60), authVariable: nil))
        #expect(fresh.status == .ok)
        await client.close()
        await server.stop()
    }

    /// A write (and an onDisconnect) that crosses the revocation of an expired credential waits
    /// for the next one.
    ///
    /// Found by the chaos run: the server revokes an expired credential (`ac`), but a write the
    /// client sent before hearing it arrives signed out. The server answers `expired_token`
    /// instead of `permission_denied`, and the client keeps the write until it has a new
    /// credential, instead of moving it to the dead letters.
    @Test func aWriteThatCrossesTheRevocationWaitsForTheNewCredential() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime()
        let rules = try SecurityRules(text: #"{ "rules": { ".read": true, ".write": "auth != null" } }"#)
        let server = try await TestServer.start(
            time: time.source,
            configure: {
                $0.enforcesTokenExpiry = true
                $0.rules = rules
            })
        // The revocation is lost on the way, so the client does not know its credential is gone.
        let transport = InterceptingTransport()
        transport.setInboundRule { $0.contains(#""a":"ac""#) ? .swallow : .forward }
        let client = PersistenceIntegrationTests.client(port: server.port, directory: directory, transport: transport)
        client.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 10, now: time.nowSeconds)))
        try await client.reference(withPath: "notes/before").setValue(1)
        await time.advance(by: .seconds(11))
        #expect(
            try await until(server.server.connections.changes) {
                server.server.connections.connections.map(\.authUID) == [nil]
            })

        // The presence flow's pair: an entry's removal on disconnect, then the entry.
        client.reference(withPath: "notes/entry").onDisconnectSetValue(nil, withCompletionBlock: nil)
        client.reference(withPath: "notes/entry").setValue(true, andPriority: nil)
        client.reference(withPath: "notes/crossing").setValue(2, andPriority: nil)
        let paused = try await until(client.changes) {
            if case .paused(let reason) = client.pendingWrites.first?.state { return reason.contains("expired") }
            return false
        }
        #expect(paused, "\(client.pendingWrites)")
        #expect(client.deadLetters.isEmpty)
        client.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 3_600, now: time.nowSeconds)))
        await client.waitForPendingWrites()
        #expect(
            try await http("GET", "/notes.json", port: server.port).json == ["before": 1, "crossing": 2, "entry": true])
        #expect(client.deadLetters.isEmpty)
        // The held registration reached the server with the new credential: the entry goes with
        // the connection, no ghost.
        client.close()
        #expect(
            try await until(server.server.metrics.changes) {
                try await http("GET", "/notes.json", port: server.port).json == ["before": 1, "crossing": 2]
            })
        await server.stop()
    }

    /// Writes restored at a reconnect wait for the server's answer to the credential.
    ///
    /// Found by the chaos run: they used to be pipelined behind it, and when the server refused the
    /// credential (expired by its clock, not yet by the client's) they were judged signed out,
    /// refused, and lost to the dead letters. Here the credential is refused because it is not
    /// signed with the server's secret.
    @Test func restoredWritesWaitForTheAnswerToTheCredential() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "s3cret"
        let rules = try SecurityRules(text: #"{ "rules": { ".read": true, ".write": "auth != null" } }"#)
        let server = try await TestServer.start(configure: {
            $0.authSecret = secret
            $0.rules = rules
        })
        let client = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        client.setCredential(.idToken(Self.token(uid: "morgan", expiresInSeconds: 3_600)))
        client.reference(withPath: "notes/queued").setValue(1, andPriority: nil)
        let paused = try await until(client.changes) {
            if case .paused(let reason) = client.pendingWrites.first?.state { return reason.contains("refused") }
            return false
        }
        #expect(paused, "\(client.pendingWrites)")
        #expect(client.deadLetters.isEmpty, "not judged signed out")
        let now = Int64(Date().timeIntervalSince1970)
        let signed = AuthToken.signedJWT(
            claims: ["uid": "morgan", "iat": .int(now), "exp": .int(now + 3_600)], secret: secret)
        client.setCredential(.idToken(signed))
        await client.waitForPendingWrites()
        #expect(try await http("GET", "/notes.json", port: server.port).json == ["queued": 1])
        client.close()
        await server.stop()
    }
}
