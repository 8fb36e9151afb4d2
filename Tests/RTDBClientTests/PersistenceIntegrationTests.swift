import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Offline persistence against real SQLite files and a real server on loopback.
@Suite struct PersistenceIntegrationTests {
    static func client(
        port: Int, directory: URL, transport: any Transport = WebSocketTransport(),
        clock: @escaping WallClock = { UnixTime.now() }
    ) -> Database {
        let database = Database(
            url: "http://127.0.0.1:\(port)?ns=demo", transport: transport, time: TimeSource.system.withWall(clock))
        database.persistenceDirectory = directory
        database.isPersistenceEnabled = true
        return database
    }

    @Test func writesMadeOfflineSurviveARestartAndArriveOnce() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = Self.client(port: server.port, directory: directory)
        first.goOffline()
        first.reference(withPath: "counter").setValue(ServerValue.increment(1), andPriority: nil)
        first.reference(withPath: "notes/a").setValue("written offline", andPriority: nil)
        first.reference(withPath: "notes").updateChildValues(
            ["b": "also offline", "c": ServerValue.timestamp()], withCompletionBlock: nil)
        first.reference(withPath: "gone").removeValue()
        let queued = first.pendingWrites
        #expect(queued.map(\.kind) == [.set, .set, .update, .remove])
        #expect(queued.allSatisfy { $0.state == .queued && $0.attempts == 0 })
        #expect(queued.map(\.path) == ["/counter", "/notes/a", "/notes", "/gone"])
        first.close()  // the process ends with the writes on disk only

        let second = Self.client(port: server.port, directory: directory)
        #expect(second.pendingWrites.map(\.id) == queued.map(\.id), "the queue is back, in order")
        await second.waitForPendingWrites()
        #expect(second.pendingWrites.isEmpty)
        #expect(try await http("GET", "/counter.json", port: server.port).json == 1)
        let notes = try #require(try await http("GET", "/notes.json", port: server.port).json)
        #expect(notes["a"] == "written offline")
        #expect(notes["b"] == "also offline")
        #expect(Int64(notes["c"]?.jsonString ?? "") ?? 0 > 1_700_000_000_000, "the server resolved the timestamp")
        second.close()

        // A third run has nothing left to send: nothing is applied twice.
        let third = Self.client(port: server.port, directory: directory)
        #expect(third.pendingWrites.isEmpty)
        try await third.reference(withPath: "after").setValue(true)
        #expect(
            try await http("GET", "/after.json", port: server.port).json == true,
            "write ids are never reused, so a new write is never mistaken for an old one")
        #expect(try await http("GET", "/counter.json", port: server.port).json == 1)
        third.close()
        await server.stop()
    }

    /// A write made just after a restart, with a long restored queue going out, reaches the
    /// server after every restored one (each sets `last`: the server keeps the one applied last).
    @Test func aWriteMadeWhileARestoredQueueGoesOutArrivesAfterIt() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = Self.client(port: server.port, directory: directory)
        first.goOffline()
        let count = 1_027
        for index in 0..<count { first.reference(withPath: "seq/last").setValue(index, andPriority: nil) }
        first.close()

        let second = Self.client(port: server.port, directory: directory)
        let connected = Recorder<Bool>()
        second.reference(withPath: ".info/connected").observe(.value) { connected.record($0.value as? Bool ?? false) }
        #expect(await connected.wait { $0.last == true })
        second.reference(withPath: "seq/last").setValue(count, andPriority: nil)
        await second.waitForPendingWrites()
        #expect(try await http("GET", "/seq/last.json", port: server.port).json == .int(Int64(count)))
        second.close()
        await server.stop()
    }

    @Test func theFirstReferenceStartsTheEngineAndQueuedWritesGoOut() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = Self.client(port: server.port, directory: directory)
        first.goOffline()
        for index in 0..<10 {
            first.reference(withPath: "queued/\(index)").setValue(index, andPriority: nil)
        }
        first.close()

        // A new run whose app only makes a reference, as an app that reads later would.
        let second = Self.client(port: server.port, directory: directory)
        _ = second.reference(withPath: "queued")
        #expect(
            try await until(server.server.metrics.changes) {
                try await http("GET", "/queued.json", port: server.port).json?.arrayValue?.count == 10
            },
            "the ten writes reached the server without the app writing again")
        second.close()
        await server.stop()
    }

    @Test func aRefusedWriteGoesToTheDeadLettersWhileLaterWritesGoThrough() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start(configure: { $0.maxWebSocketWriteBytes = 1_024 })
        let client = Self.client(port: server.port, directory: directory)
        client.goOffline()
        client.reference(withPath: "bio").setValue(String(repeating: "x", count: 2_000), andPriority: nil)
        client.reference(withPath: "name").setValue("Morgan", andPriority: nil)
        let seen = Recorder<[PendingWrite]>()
        client.observePendingWrites { seen.record($0) }
        client.goOnline()
        await client.waitForPendingWrites()
        #expect(try await http("GET", "/name.json", port: server.port).json == "Morgan")
        let letters = client.deadLetters
        #expect(letters.count == 1)
        #expect(letters.first?.status == .tooBig)
        #expect(letters.first?.write.path == "/bio")
        #expect(letters.first?.reason.isEmpty == false)
        #expect(await seen.wait { $0.last?.isEmpty == true }, "the observer saw the queue drain")
        client.close()

        // Dead letters are on disk too; discarding one removes it for good.
        let again = Self.client(port: server.port, directory: directory)
        let id = try #require(again.deadLetters.first?.id)
        let retried = Recorder<String>()
        again.retryDeadLetter(withID: id) { error in retried.record(error?.code.rawValue ?? "ok") }
        #expect(await retried.wait { $0 == ["too_big"] }, "still too big: back in the dead letters")
        let newID = try #require(again.deadLetters.first?.id)
        #expect(newID > id)
        again.discardDeadLetter(withID: newID)
        #expect(try await until(again.changes) { again.deadLetters.isEmpty })
        again.close()
        #expect(Self.client(port: server.port, directory: directory).deadLetters.isEmpty)
        await server.stop()
    }

    @Test func cacheSizeOutsideTheAllowedRangeIsRefusedByName() throws {
        let database = Database(url: "http://127.0.0.1:1?ns=demo")
        #expect(throws: PersistenceSettingError.self) { try database.setPersistenceCacheSizeBytes(512) }
        let tooBig = #expect(throws: PersistenceSettingError.self) {
            try database.setPersistenceCacheSizeBytes(200 * 1024 * 1024)
        }
        #expect(tooBig?.description.contains("between 1 MB") == true)
        database.persistenceCacheSizeBytes = 5
        #expect(database.persistenceCacheSizeBytes == 10 * 1024 * 1024, "refused; the default stays")
        try database.setPersistenceCacheSizeBytes(2 * 1024 * 1024)
        #expect(database.persistenceCacheSizeBytes == 2 * 1024 * 1024)
    }
}
