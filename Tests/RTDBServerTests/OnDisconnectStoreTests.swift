import Foundation
import Logging
import RTDBCore
import RTDBRules
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// The stored copy of each session's onDisconnect writes, on a real SQLite file: it follows the
/// live writes, goes with them when they run, and is run by a later engine on the same file for
/// sessions that never ended.
@Suite struct OnDisconnectStoreTests {
    let directory = temporaryDirectory()
    var file: String { directory.appendingPathComponent("t.sqlite").path }

    static let rules = """
        { "rules": { "p": { ".read": true, ".write": "auth != null" }, "open": { ".read": true, ".write": true } } }
        """

    func open(
        time: TimeSource = TimeSource.system.withWall({ UnixTime(millisecondsSince1970: 1_000_000) }),
        credentials: CredentialPolicy = CredentialPolicy()
    ) async throws -> DatabaseEngine {
        var logger = Logger(label: "test.engine")
        logger.logLevel = .critical
        return try await DatabaseEngine.open(
            namespace: "t", store: SQLiteStore(path: file), time: time, connections: ConnectionTable(),
            logger: logger, credentials: credentials, rules: SecurityRules(text: Self.rules),
            orphanGrace: .seconds(5))
    }

    /// Sends requests as one batch and waits for the answer to the last (sent once it is durable).
    func send(_ requests: [ClientRequest], to engine: DatabaseEngine, outlet: Outlet) async throws {
        let batch = requests.enumerated().map { SessionRequest(number: $0.offset + 1, request: .success($0.element)) }
        await engine.handle(batch, outlet: outlet)
        let last = #""r":\#(requests.count),"#
        while let items = await outlet.nextBatch() {
            for case .wire(let text) in items {
                if text.contains(last) {
                    #expect(text.contains(#""s":"ok""#), "\(text)")
                    return
                }
            }
        }
    }

    /// What the file holds, read through a connection of its own.
    func stored() async throws -> [String: [String]] {
        let records = try await SQLiteStore(path: file).loadOnDisconnect()
        return Dictionary(records.map { ($0.sessionID, $0.writes.map(\.path.description)) }) { first, _ in first }
    }

    static func signIn(_ uid: String, exp: Int64 = 1 << 40) -> ClientRequest {
        .auth(credential: AuthToken.unsignedJWT(claims: ["uid": .string(uid), "exp": .int(exp)]), authVariable: nil)
    }

    @Test func theStoredCopyFollowsTheLiveWrites() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try await open()
        let outlet = Outlet()
        await engine.openSession(outlet: outlet, sessionID: "s1")
        try await send(
            [
                Self.signIn("u"), .onDisconnectPut(path: Path("p/a"), data: 1),
                .onDisconnectMerge(path: Path("p/c"), data: ["x": 1, "y": [".sv": "timestamp"]]),
            ], to: engine, outlet: outlet)
        #expect(try await stored() == ["s1": ["/p/a", "/p/c/x", "/p/c/y"]])
        let record = try #require(try await SQLiteStore(path: file).loadOnDisconnect().first)
        #expect(record.auth?.uid == "u")
        #expect(record.writes.last?.node.exportJSON == [".sv": "timestamp"], "kept unresolved")

        try await send([.onDisconnectCancel(path: Path("p/c/x"))], to: engine, outlet: outlet)
        #expect(try await stored() == ["s1": ["/p/a", "/p/c/y"]])
        try await send([.onDisconnectCancel(path: Path("p"))], to: engine, outlet: outlet)
        #expect(try await stored() == [:], "nothing left to run, nothing stored")

        try await send([.onDisconnectPut(path: Path("p/a"), data: 2)], to: engine, outlet: outlet)
        await engine.closeSession(outlet: outlet)
        await engine.close()
        #expect(try await stored() == [:], "the writes ran, and their copy went in the same commit")
        #expect(try await SQLiteStore(path: file).load().root.plainJSON() == ["p": ["a": 2]])
    }

    @Test func sessionsOfAKilledEngineRunWhenTheyComeBackOrAfterTheGrace() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first engine is never closed: as far as the file knows, its process died.
        let first = try await open()
        for (session, uid) in [("s1", "a"), ("s2", "b")] {
            let outlet = Outlet()
            await first.openSession(outlet: outlet, sessionID: session)
            try await send(
                [
                    Self.signIn(uid), .onDisconnectPut(path: Path("p/\(uid)"), data: [".sv": "timestamp"]),
                    .onDisconnectPut(path: Path("open/count"), data: [".sv": ["increment": 1]]),
                ], to: first, outlet: outlet)
        }
        let time = TestTime(start: UnixTime(millisecondsSince1970: 2_000_000))
        let second = try await open(time: time.source)
        #expect(await second.hasOrphanedSessions)
        #expect(await second.currentRoot.isEmpty, "nothing runs before the grace or a return")

        // s1 comes back (ls=s1): its writes run before anything the new session asks.
        await second.openSession(outlet: Outlet(), sessionID: "s3", supersedes: "s1")
        let afterReturn = await second.currentRoot.plainJSON()
        #expect(afterReturn == ["open": ["count": 1], "p": ["a": 2_000_000]], "\(afterReturn)")

        await time.advance(by: .milliseconds(5_100))
        #expect(try await until(second.changes) { await !second.hasOrphanedSessions })
        let afterGrace = await second.currentRoot
        #expect(afterGrace.child(at: Path("open/count")).exportJSON == 2, "\(afterGrace.plainJSON())")
        // Stamped when the grace ran out: at its deadline, or at the end of the move when the
        // timer had not started sleeping before the clock moved.
        let stamp = afterGrace.child(at: Path("p/b")).exportJSON.intValue ?? 0
        #expect((2_005_000...2_005_100).contains(stamp), "\(afterGrace.plainJSON())")
        await second.close()
        #expect(try await stored() == [:])
        // A third start finds nothing to run again.
        let third = try await open(time: time.source)
        #expect(await !third.hasOrphanedSessions)
        await third.close()
    }

    @Test func aCredentialThatExpiredStillRunsItsWritesAsItsUser() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = CredentialPolicy(enforcesExpiry: true)
        let first = try await open(
            time: TestTime().source.withWall({ UnixTime(millisecondsSince1970: 1_000_000) }), credentials: policy)
        let outlet = Outlet()
        await first.openSession(outlet: outlet, sessionID: "s1")
        try await send(
            [
                Self.signIn("a", exp: 1_010), .onDisconnectPut(path: Path("p/a"), data: true),
                .onDisconnectPut(path: Path("open/a"), data: true),
            ], to: first, outlet: outlet)
        // The credential expired before the restarted engine runs the writes: they run as the
        // user who registered them, under the rules as they are now.
        let second = try await open(
            time: TimeSource.system.withWall({ UnixTime(millisecondsSince1970: 1_020_000) }), credentials: policy)
        await second.openSession(outlet: Outlet(), sessionID: "s2", supersedes: "s1")
        #expect(await second.currentRoot.plainJSON() == ["open": ["a": true], "p": ["a": true]])
        await second.close()
    }

    @Test func onALiveConnectionAnExpiryKeepsTheIdentityASignOutDoesNot() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime(start: UnixTime(millisecondsSince1970: 1_000_000))
        let engine = try await open(
            time: time.source, credentials: CredentialPolicy(enforcesExpiry: true))
        let expiring = Outlet()
        await engine.openSession(outlet: expiring, sessionID: "s1")
        try await send(
            [Self.signIn("a", exp: 1_010), .onDisconnectPut(path: Path("p/a"), data: true)], to: engine,
            outlet: expiring)
        let leaving = Outlet()
        await engine.openSession(outlet: leaving, sessionID: "s2")
        try await send(
            [Self.signIn("b"), .onDisconnectPut(path: Path("p/b"), data: true), .unauth], to: engine, outlet: leaving)
        // The first credential runs out (the server revokes it); the connection then drops.
        await time.advance(by: .seconds(11))
        #expect(try await until(engine.changes) { await engine.currentRoot.isEmpty })
        await engine.closeSession(outlet: expiring)
        await engine.closeSession(outlet: leaving)
        // The expired user's presence is cleaned up; the one who signed out chose to be nobody.
        #expect(await engine.currentRoot.plainJSON() == ["p": ["a": true]])
        await engine.close()
    }
}
