import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The source document's presence sample against a real `RTDBServer` on loopback.
@Suite struct PresenceIntegrationTests {
    static func client(_ server: TestServer, clock: WallClock? = nil) -> Database {
        Database(
            url: "http://127.0.0.1:\(server.port)?ns=demo",
            time: TimeSource.system.withWall(clock ?? { UnixTime.now() }))
    }

    /// The sample app, written as the document writes it (with an injected database).
    static func startPresence(_ database: Database, user: String) {
        let myConnectionsRef = database.reference(withPath: "users/\(user)/connections")
        let lastOnlineRef = database.reference(withPath: "users/\(user)/lastOnline")
        let connectedRef = database.reference(withPath: ".info/connected")
        connectedRef.observe(
            .value,
            with: { snapshot in
                guard snapshot.value as? Bool ?? false else { return }
                let con = myConnectionsRef.childByAutoId()
                con.onDisconnectRemoveValue()
                con.setValue(true)
                lastOnlineRef.onDisconnectSetValue(ServerValue.timestamp())
            })
    }

    @Test func anotherClientSeesTheConnectionComeAndGo() async throws {
        let server = try await TestServer.start()
        let device = Self.client(server)
        let watcher = Self.client(server)
        Self.startPresence(device, user: "morgan")
        let trace = Recorder<String>()
        device.reference(withPath: ".info/connected").observe(.value) { trace.record("connected=\($0.value ?? "nil")") }
        device.observeConnectionStatus { trace.record("\($0.phase)") }
        let connections = Recorder<Int>()
        let lastOnline = Recorder<Int64>()
        watcher.reference(withPath: "users/morgan/connections").observe(.value) { snapshot in
            connections.record(Int(snapshot.childrenCount))
        }
        watcher.reference(withPath: "users/morgan/lastOnline").observe(.value) { snapshot in
            if let value = snapshot.value as? NSNumber { lastOnline.record(value.int64Value) }
        }
        #expect(await connections.wait { $0.last == 1 })
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        device.goOffline()
        #expect(try await until(watcher.changes) { connections.last == 0 && lastOnline.last != nil })
        #expect(lastOnline.last! >= before - 1_000, "lastOnline is the server's time of the disconnect")
        // Back online: a new connection entry appears.
        device.goOnline()
        let reconnected = await connections.wait { $0.last == 1 }
        #expect(
            reconnected,
            "device \(device.connectionStatus.phase), watcher \(watcher.connectionStatus.phase), seen \(connections.all), device trace \(trace.all)"
        )
        // Exactly one entry: the first connection's write, re-sent after its ack was lost to
        // goOffline, is not applied a second time (idempotency keys). Barrier: the device's writes
        // answered, then a write of the watcher's answered (the server sends it what came
        // before on the same connection, in order), then the watcher's callbacks.
        await device.waitForPendingWrites()
        try await watcher.reference(withPath: "barrier/watcher").setValue(true)
        await watcher.barrier()
        #expect(connections.last == 1, "seen \(connections.all)")
        // Closing the instance also runs the server-side onDisconnect writes.
        let sessionsBefore = server.server.connections.connections.map(\.sessionID)
        device.close()
        let removed = await connections.wait { $0.last == 0 }
        #expect(
            removed,
            "device \(device.connectionStatus.phase), server sessions before \(sessionsBefore) after \(server.server.connections.connections.map(\.sessionID))"
        )
        watcher.close()
        await server.stop()
    }

    @Test func infoConnectedFollowsTheConnection() async throws {
        let server = try await TestServer.start()
        let client = Self.client(server)
        let states = Recorder<Bool>()
        client.reference(withPath: ".info/connected").observe(.value) { snapshot in
            states.record(snapshot.value as? Bool ?? false)
        }
        #expect(await states.wait { $0.last == true })
        client.goOffline()
        #expect(await states.wait { $0.last == false })
        client.goOnline()
        #expect(await states.wait { $0.last == true })
        await server.stop()
        #expect(await states.wait { $0.last == false }, "server stopped")
        if case .waitingToRetry = client.connectionStatus.phase {
        } else if case .connecting = client.connectionStatus.phase {
        } else {
            Issue.record("expected a retry after the server stopped, got \(client.connectionStatus.phase)")
        }
        client.close()
    }

    @Test func infoConnectedIsFalseUntilTheHandshake() async throws {
        let server = try await TestServer.start()
        let port = server.port
        await server.stop()  // nothing listens on the port any more
        let client = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        let states = Recorder<Bool>()
        client.reference(withPath: ".info/connected").observe(.value) { states.record($0.value as? Bool ?? true) }
        #expect(await states.wait { $0.last == false })
        #expect(
            try await until(client.changes) {
                if case .waitingToRetry(_, _, let reason) = client.connectionStatus.phase { return !reason.isEmpty }
                return false
            })
        client.close()
    }

    @Test func serverTimeOffsetReflectsASkewedClock() async throws {
        // Injected clocks: the server's stands still and the client's is 5 s ahead of it, so the
        // offset does not depend on how busy the machine is. The client's timers stand still
        // too: against a running monotonic clock, a wall clock that stands still looks stepped
        // back whenever a loaded machine holds the engine past the jump threshold.
        let serverNow = UnixTime(millisecondsSince1970: 1_800_000_000_000)
        let server = try await TestServer.start(time: TimeSource.system.withWall({ serverNow }))
        let client = Database(
            url: "http://127.0.0.1:\(server.port)?ns=demo",
            time: TestTime().source.withWall({ serverNow + .seconds(5) }))
        let offsets = Recorder<Double>()
        client.reference(withPath: ".info/serverTimeOffset").observe(
            .value,
            with: { snapshot in
                if let offset = snapshot.value as? TimeInterval { offsets.record(offset) }
            })
        #expect(await offsets.wait { ($0.last ?? 0) < -1_000 })
        #expect(abs(offsets.last! + 5_000) <= 100, "offset \(offsets.last!) should be about -5000")
        #expect(try await until(client.changes) { client.connectionStatus.clockSkew != nil })
        let skew = try #require(client.connectionStatus.clockSkew)
        #expect(abs(skew.offset.inMilliseconds + 5_000) <= skew.errorBound.inMilliseconds + 50)
        client.close()
        await server.stop()
    }

    @Test func onDisconnectOperationsWithCompletions() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let client = server.client(time)
        let watcher = server.client(time)
        let completions = Recorder<String>()
        let ref = client.reference(withPath: "od")
        ref.child("set").onDisconnectSetValue("bye") { error, _ in completions.record("set:\(error == nil)") }
        ref.child("update").onDisconnectUpdateChildValues(["a": 1, "b/c": 2]) { error, _ in
            completions.record("update:\(error == nil)")
        }
        try await ref.child("gone").setValue("here")
        ref.child("gone").onDisconnectRemoveValue { error, _ in completions.record("remove:\(error == nil)") }
        ref.child("cancelled").onDisconnectSetValue("never")
        ref.child("cancelled").cancelDisconnectOperations { error, _ in completions.record("cancel:\(error == nil)") }
        try await client.serverRoundTrip()
        #expect(Set(completions.all) == ["set:true", "update:true", "remove:true", "cancel:true"])
        client.goOffline()
        let seen = Recorder<String>()
        watcher.reference(withPath: "od").observe(.value) { snapshot in
            seen.record((try? JSONValue(any: snapshot.value).jsonString) ?? "?")
        }
        // The offline client's session ends in the namespace, its onDisconnect writes run, and the
        // watcher hears them before the answer to its own read.
        await client.barrier()
        await server.closesFinished()
        try await watcher.serverRoundTrip()
        #expect(seen.last == #"{"set":"bye","update":{"a":1,"b":{"c":2}}}"#, "\(seen.all)")
        client.close()
        watcher.close()
        await server.stop()
    }

    @Test func invalidWritesReportErrorsWithoutCrashing() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let client = server.client(time)
        let errors = Recorder<String>()
        client.reference(withPath: "a/b.c").setValue(1) { error, _ in errors.record("\(error!)") }
        client.reference(withPath: "ok").setValue(["bad#key": 1]) { error, _ in errors.record("\(error!)") }
        client.reference(withPath: ".info/connected").setValue(true) { error, _ in errors.record("\(error!)") }
        await client.barrier()
        #expect(errors.all.count == 3)
        #expect(errors.all.contains { $0.contains("'a/b.c'") || $0.contains("b.c") })
        #expect(errors.all.contains { $0.contains("bad#key") })
        #expect(errors.all.contains { $0.contains(".info") })
        client.close()
        await server.stop()
    }
}
