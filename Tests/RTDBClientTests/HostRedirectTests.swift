import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The hosts production uses: the handshake's `h` is where later connections go, a reset moves
/// the client at once, the host is kept on disk, and a kept host that fails gives way to the URL's.
@Suite struct HostRedirectTests {
    @Test func aResetMovesTheClientAtOnceAndTheHostIsKeptForTheNextRun() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = try await TestServer.start()
        // The URL's server only sends clients on (a front, or a database Firebase has moved).
        let front = try await TestServer.start(configure: { $0.redirectHost = "127.0.0.1:\(home.port)" })
        let first = PersistenceIntegrationTests.client(port: front.port, directory: directory)
        try await first.reference(withPath: "notes/a").setValue("through the redirect")
        #expect(try await http("GET", "/notes/a.json", port: home.port).json == "through the redirect")
        #expect(
            try await http("GET", "/notes/a.json", port: front.port).json == .null, "nothing was written to the front")
        let counted = try await http("GET", "/metrics", port: front.port).body
        #expect(counted.contains("presencetop_sessions_refused_total{reason=\"redirect\"} 1"), "\(counted)")
        first.close()

        // The next run goes to the kept host directly: the front is not needed any more.
        await front.stop()
        let second = PersistenceIntegrationTests.client(port: front.port, directory: directory)
        try await second.reference(withPath: "notes/b").setValue("straight to the kept host")
        #expect(try await http("GET", "/notes/b.json", port: home.port).json == "straight to the kept host")
        second.close()
        await home.stop()
    }

    @Test func aKeptHostThatFailsGivesWayToTheURLsHost() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gone = try await TestServer.start()
        let front = try await TestServer.start(configure: { $0.redirectHost = "127.0.0.1:\(gone.port)" })
        let first = PersistenceIntegrationTests.client(port: front.port, directory: directory)
        try await first.reference(withPath: "x").setValue(1)
        first.close()
        await gone.stop()
        await front.stop()
        // The URL's host serves the database itself now; the kept host is dead.
        let own = try await TestServer.start(configure: { $0.port = front.port })
        let second = PersistenceIntegrationTests.client(port: front.port, directory: directory)
        try await second.reference(withPath: "y").setValue(2)
        #expect(try await http("GET", "/y.json", port: own.port).json == 2)
        second.close()
        await own.stop()
    }

    /// A handshake that names another host (as a Firebase shard does): this connection is served
    /// here, and the next one (the next run, with persistence) goes to the named host.
    @Test func theHandshakesHostIsWhereTheNextConnectionGoes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shard = try await TestServer.start()
        let first = try await TestServer.start(configure: { $0.advertisedHost = "127.0.0.1:\(shard.port)" })
        let client = PersistenceIntegrationTests.client(port: first.port, directory: directory)
        try await client.reference(withPath: "a").setValue("served where it connected")
        #expect(try await http("GET", "/a.json", port: first.port).json == "served where it connected")
        client.close()
        let next = PersistenceIntegrationTests.client(port: first.port, directory: directory)
        try await next.reference(withPath: "b").setValue("served by the named host")
        #expect(try await http("GET", "/b.json", port: shard.port).json == "served by the named host")
        #expect(try await http("GET", "/b.json", port: first.port).json == .null)
        next.close()
        await first.stop()
        await shard.stop()
    }

    @Test(arguments: ["evil.example/path", "a b", "user@host", "", String(repeating: "a", count: 300)])
    func aHostThatCouldChangeTheURLIsNotTaken(host: String) {
        #expect(!ConnectionTarget.isHost(host))
    }

    @Test(arguments: ["s-usc1a-nss-2063.firebaseio.com", "127.0.0.1:9000", "[::1]:9000"])
    func productionAndLocalHostsAreTaken(host: String) {
        #expect(ConnectionTarget.isHost(host))
    }
}
