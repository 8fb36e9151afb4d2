import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The cache of the listeners open when the app last stopped is read ahead at start, on another
/// core; it is used only while the cache has not changed.
@Suite struct ReadAheadTests {
    private static func hits(_ database: Database) -> Int {
        database.repo.engineQueue.sync { database.repo.disk?.cache.readAheadHits ?? -1 }
    }

    private static func items(_ snapshot: DataSnapshot) -> [String: Int] { (snapshot.value as? [String: Int]) ?? [:] }

    /// An instance whose start waits, offline, until `release` is called: whatever the test does
    /// before that happens while the engine starts, however busy the machine.
    private static func heldAtStart(port: Int, directory: URL) -> (Database, release: @Sendable () -> Void) {
        let database = PersistenceIntegrationTests.client(port: port, directory: directory)
        let gate = DispatchSemaphore(value: 0)
        database.withState { $0.settings.beforeOpeningPersistence = { gate.wait() } }
        database.goOffline()
        return (database, { gate.signal() })
    }

    @Test func aListenerOpenAtTheLastStopStartsFromDataReadAhead() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        _ = try await http("PUT", "/items.json", port: server.port, body: #"{"a":1,"b":2}"#)
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        let loaded = Recorder<[String: Int]>()
        first.reference(withPath: "items").observe(.value) { loaded.record(Self.items($0)) }
        #expect(await loaded.wait { $0.last == ["a": 1, "b": 2] })
        first.close()  // stops with the listener open

        let (second, releaseSecond) = Self.heldAtStart(port: server.port, directory: directory)
        let seen = Recorder<[String: Int]>()
        let handle = second.reference(withPath: "items").observe(.value) { seen.record(Self.items($0)) }
        releaseSecond()
        #expect(await seen.wait { $0.last == ["a": 1, "b": 2] })
        #expect(Self.hits(second) == 1)
        second.reference(withPath: "items").removeObserver(withHandle: handle)
        second.close()  // stops with no listener open

        // A listen added while the engine starts is read ahead too.
        let (third, releaseThird) = Self.heldAtStart(port: server.port, directory: directory)
        let again = Recorder<[String: Int]>()
        let secondHandle = third.reference(withPath: "items").observe(.value) { again.record(Self.items($0)) }
        releaseThird()
        #expect(await again.wait { $0.last == ["a": 1, "b": 2] })
        #expect(Self.hits(third) == 1)
        third.reference(withPath: "items").removeObserver(withHandle: secondHandle)
        third.close()

        // One added once the engine has started reads the cache itself.
        let fourth = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        fourth.goOffline()
        _ = fourth.pendingWrites  // waits for the start
        let late = Recorder<[String: Int]>()
        fourth.reference(withPath: "items").observe(.value) { late.record(Self.items($0)) }
        #expect(await late.wait { $0.last == ["a": 1, "b": 2] }, "from the cache")
        #expect(Self.hits(fourth) == 0)
        fourth.close()
        await server.stop()
    }

    @Test func dataReadAheadIsDroppedWhenTheCacheChanges() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        _ = try await http("PUT", "/items.json", port: server.port, body: #"{"a":1}"#)
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        let loaded = Recorder<[String: Int]>()
        first.reference(withPath: "items").observe(.value) { loaded.record(Self.items($0)) }
        #expect(await loaded.wait { $0.last == ["a": 1] })
        first.close()

        // An acknowledged write is cached before the listener comes back: the data read ahead
        // at start no longer matches the cache, and the first value must show the write.
        let second = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        try await second.reference(withPath: "items/b").setValue(3)
        second.goOffline()
        let seen = Recorder<[String: Int]>()
        second.reference(withPath: "items").observe(.value) { seen.record(Self.items($0)) }
        #expect(await seen.wait { $0.last != nil })
        #expect(seen.all.first == ["a": 1, "b": 3])
        #expect(Self.hits(second) == 0)
        second.close()
        await server.stop()
    }
}
