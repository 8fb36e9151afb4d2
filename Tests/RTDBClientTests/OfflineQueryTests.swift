import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The source document's "Querying data offline" example, event by event, across a restart.
@Suite struct OfflineQueryTests {
    static let scores =
        #"{"bruhathkayosaurus":55,"lambeosaurus":21,"linhenykus":80,"pterodactyl":93,"stegosaurus":5,"triceratops":22}"#

    @Test func queriesAnsweredFromTheCacheAfterARestart() async throws {
        let serverData = temporaryDirectory()
        let clientData = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: serverData)
            try? FileManager.default.removeItem(at: clientData)
        }
        let server = try await TestServer.start(dataDirectory: serverData)
        let port = server.port
        _ = try await http("PUT", "/scores.json", port: port, body: Self.scores)

        // Online: the last four by score load and are cached.
        let online = PersistenceIntegrationTests.client(port: port, directory: clientData)
        let loaded = Recorder<String>()
        online.reference(withPath: "scores").queryOrderedByValue().queryLimited(toLast: 4).observe(.childAdded) {
            loaded.record($0.key)
        }
        #expect(await loaded.wait { $0.count == 4 })
        #expect(
            try await until(online.changes) {
                online.cacheReport()?.trackedQueries.contains { $0.path == "/scores" && $0.complete } == true
            })
        online.close()
        await server.stop()

        // The process restarts with the server out of reach.
        let offline = PersistenceIntegrationTests.client(port: port, directory: clientData)
        let events = Recorder<String>()
        let byScore = offline.reference(withPath: "scores").queryOrderedByValue()
        byScore.queryLimited(toLast: 2).observe(.childAdded) { events.record("2 added \($0.key)") }
        byScore.queryLimited(toLast: 2).observe(.value) { events.record("2 value \($0.childrenCount)") }
        // That query never ran online: child_added for the top two, and no value event.
        #expect(await events.wait { $0.count >= 2 })
        byScore.queryLimited(toLast: 6).observe(.childAdded) { events.record("6 added \($0.key)") }
        byScore.queryLimited(toLast: 6).observe(.value) { events.record("6 value \($0.childrenCount)") }
        // Six asked for, four cached: child_added for those four at once, no value event.
        #expect(await events.wait { $0.count >= 6 })
        await offline.barrier()
        #expect(
            events.all == [
                "2 added linhenykus", "2 added pterodactyl",
                "6 added triceratops", "6 added bruhathkayosaurus", "6 added linhenykus", "6 added pterodactyl",
            ])

        // Back online: the two missing children, then value.
        let restarted = try await TestServer.start(dataDirectory: serverData, configure: { $0.port = port })
        #expect(await events.wait { $0.filter { $0.hasPrefix("6") }.count == 7 })
        #expect(await events.wait { $0.contains("2 value 2") })
        #expect(
            events.all.filter { $0.hasPrefix("6") }.suffix(3) == [
                "6 added stegosaurus", "6 added lambeosaurus", "6 value 6",
            ])
        #expect(events.all.filter { $0.hasPrefix("2") } == ["2 added linhenykus", "2 added pterodactyl", "2 value 2"])
        offline.close()
        await restarted.stop()
    }

    @Test func aCompletedListenIsCompleteOfflineAfterARestart() async throws {
        let clientData = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: clientData) }
        let server = try await TestServer.start()
        let port = server.port
        _ = try await http("PUT", "/scores.json", port: port, body: Self.scores)
        let online = PersistenceIntegrationTests.client(port: port, directory: clientData)
        let values = Recorder<Int>()
        online.reference(withPath: "scores").observe(.value) { values.record(Int($0.childrenCount)) }
        #expect(await values.wait { $0.last == 6 })
        online.close()
        await server.stop()

        // Offline, the same listen and a query inside it are answered in full, value included.
        let offline = PersistenceIntegrationTests.client(port: port, directory: clientData)
        let again = Recorder<String>()
        offline.reference(withPath: "scores").observe(.value) { again.record("all \($0.childrenCount)") }
        offline.reference(withPath: "scores").queryOrderedByValue().queryLimited(toFirst: 2).observe(.value) {
            again.record("first two \($0.children.map { $0.key })")
        }
        offline.reference(withPath: "scores/pterodactyl").observe(.value) { again.record("one \($0.value ?? "nil")") }
        #expect(await again.wait { $0.count == 3 })
        #expect(again.all.contains("all 6"))
        #expect(again.all.contains(#"first two ["stegosaurus", "lambeosaurus"]"#))
        #expect(again.all.contains("one 93"))
        offline.close()
    }
}
