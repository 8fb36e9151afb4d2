import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

@testable import RTDBClient

/// keepSynced, LRU pruning and the cache inspector, with real SQLite files.
@Suite struct CacheManagementTests {
    @Test func keepSyncedDownloadsWithoutAListenerAndSurvivesARestart() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let port = server.port
        _ = try await http("PUT", "/config.json", port: port, body: #"{"theme":"dark","version":1}"#)
        let first = PersistenceIntegrationTests.client(port: port, directory: directory)
        first.reference(withPath: "config").keepSynced(true)
        func configQuery(_ database: Database) -> CacheReport.TrackedQueryInfo? {
            database.cacheReport()?.trackedQueries.first { $0.path == "/config" }
        }
        #expect(try await until(first.changes) { configQuery(first)?.complete == true })
        #expect(configQuery(first)?.active == true)
        #expect(configQuery(first)?.keepSynced == true)
        #expect((first.cacheReport()?.bytesByTopLevelPath["config"] ?? 0) > 0)
        // Changes keep arriving with no listener.
        _ = try await http("PATCH", "/config.json", port: port, body: #"{"version":2}"#)
        #expect(
            try await eventually {
                (try? first.repo.disk?.store.serverCache(at: Path("config/version"))) == Node(.number(.int(2)))
            })
        first.close()
        await server.stop()

        // After a restart the flag holds again before the app says anything, and the data is there
        // offline.
        let second = PersistenceIntegrationTests.client(port: port, directory: directory)
        #expect(configQuery(second)?.keepSynced == true)
        #expect(configQuery(second)?.active == true)
        let version = Recorder<Int>()
        second.reference(withPath: "config/version").observe(.value) { version.record(($0.value as? Int) ?? -1) }
        #expect(await version.wait { $0.last == 2 })
        second.reference(withPath: "config").keepSynced(false)
        #expect(try await until(second.changes) { configQuery(second)?.keepSynced == false })
        second.close()
        let third = PersistenceIntegrationTests.client(port: port, directory: directory)
        #expect(configQuery(third)?.keepSynced == false)
        #expect(configQuery(third)?.active == false)
        third.close()
    }

    @Test func pruningRemovesTheOldestInactiveQueriesButNeverActiveOrKeptOnes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let port = server.port
        let blob = String(repeating: "x", count: 1_000)
        var items: [String] = []
        for index in 0..<30 { items.append(#""item\#(index)":{"text":"\#(blob)"}"#) }
        _ = try await http("PUT", "/items.json", port: port, body: "{" + items.joined(separator: ",") + "}")
        _ = try await http(
            "PUT", "/pinned.json", port: port, body: #"{"text":"\#(String(repeating: "p", count: 4_000))"}"#)

        // The cache orders queries by when they were last used, on the engine's wall clock: here
        // one the test moves, so each read is a distinct moment.
        let time = TestTime()
        let client = PersistenceIntegrationTests.client(port: port, directory: directory, clock: time.wall)
        client.setCacheSizeForTesting(12_000)
        client.reference(withPath: "pinned").keepSynced(true)
        // Thirty locations read once each, oldest first: they become inactive tracked queries.
        for index in 0..<30 {
            let seen = Recorder<Bool>()
            let ref = client.reference(withPath: "items/item\(index)")
            let handle = ref.observe(.value) { seen.record($0.exists()) }
            #expect(await seen.wait { $0.last == true })
            ref.removeObserver(withHandle: handle)
            await time.advance(by: .milliseconds(2))
        }
        let live = Recorder<Int>()
        client.reference(withPath: "live").observe(.value) { live.record(($0.value as? Int) ?? -1) }
        let before = try #require(client.cacheReport())
        #expect(before.totalBytes > 30_000)
        #expect(before.pruneDue)
        #expect(before.nextPrune.first == "/items/item0$default", "the oldest use goes first")

        // More than 1,000 server updates trigger the size check.
        let writer = WireTestClient(url: server.webSocketURL)
        _ = try await writer.hello()
        for tick in 1...1_001 { await writer.send(.put(path: Path("live"), data: .int(Int64(tick)), hash: nil)) }
        #expect(await live.wait { $0.last == 1_001 })
        #expect(try await eventually { (client.cacheReport()?.totalBytes ?? .max) <= 12_000 })
        let after = try #require(client.cacheReport())
        let paths = Set(after.trackedQueries.map(\.path))
        #expect(paths.contains("/pinned"), "keepSynced data is never pruned")
        #expect(paths.contains("/live"), "active data is never pruned")
        #expect(!paths.contains("/items/item0"))
        #expect(paths.contains("/items/item29"), "the most recently used survive")
        #expect((after.bytesByTopLevelPath["pinned"] ?? 0) > 4_000)
        await writer.close()
        client.close()
        await server.stop()
    }

    @Test func clearingTheCacheForgetsDataButNotPendingWrites() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        _ = try await http("PUT", "/a.json", port: server.port, body: #""cached""#)
        let client = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        let seen = Recorder<String>()
        let handle = client.reference(withPath: "a").observe(.value) { seen.record($0.value as? String ?? "") }
        #expect(await seen.wait { $0.last == "cached" })
        client.reference(withPath: "a").removeObserver(withHandle: handle)
        client.goOffline()
        client.reference(withPath: "b").setValue("queued", andPriority: nil)
        #expect((client.cacheReport()?.totalBytes ?? 0) > 0)
        client.clearPersistentCache()
        let report = try #require(client.cacheReport())
        #expect(report.totalBytes == 0)
        #expect(report.trackedQueries.isEmpty)
        #expect(client.pendingWrites.map(\.path) == ["/b"])
        client.goOnline()
        await client.waitForPendingWrites()
        #expect(try await http("GET", "/b.json", port: server.port).json == "queued")
        client.close()
        await server.stop()
    }
}
