import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Offline persistence against real SQLite files and a real server on loopback: dead letters
/// the server's own limit makes, kept on disk. (A queue that outlives a restart is
/// RestartedQueueTests', in this process on the test's clock.)
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
