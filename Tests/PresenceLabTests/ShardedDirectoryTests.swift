import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBTestSupport
import Testing

/// Three databases watched as one directory, against three real servers on loopback: the second
/// behind a link, in the status layout; the third refusing reads without its own database secret.
@Suite(.timeLimit(.minutes(10))) struct ShardedDirectoryTests {
    @Test func threeShardsAreOneDirectoryAndALostOneKeepsWhatItSaid() async throws {
        let secret = "secret-\(UUID().uuidString)"
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        let third = try await TestServer.start(configure: { $0.authSecret = secret })
        let link = try LinkProxy(upstreamPort: second.port)
        let linkPort = try await link.start()

        // ana: online on the first, offline on the second; bo: online on the second only
        // (status layout); cy: offline on the first and the third, last online on the third.
        let one = Database(url: "\(first.baseURL)?ns=a")
        let two = Database(url: "\(second.baseURL)?ns=b")
        let three = Database(url: "\(third.baseURL)?ns=c")
        three.setTokenProvider(StaticTokenProvider.databaseSecret(secret))
        defer { for database in [one, two, three] { database.close() } }
        try await one.reference(withPath: "users").setValue([
            "ana": ["connections": ["-Nana1": true], "lastOnline": 100],
            "cy": ["lastOnline": 200],
        ])
        try await two.reference(withPath: "status").setValue([
            "ana": ["state": "offline", "last_changed": 150],
            "bo": ["state": "online", "last_changed": 120],
        ])
        try await three.reference(withPath: "users/cy/lastOnline").setValue(300)

        var options = SimulationOptions()
        options.server = .remote(ServerTarget(host: "127.0.0.1", port: first.port, namespace: "a"))
        options.readOnly = true
        options.otherDatabases = [
            WatchedDatabase(
                target: ServerTarget(host: "127.0.0.1", port: linkPort, namespace: "b"), presencePath: "status",
                layout: .status(state: "state", online: "online", changed: "last_changed")),
            WatchedDatabase(
                target: ServerTarget(host: "127.0.0.1", port: third.port, namespace: "c"),
                credentials: StaticTokenProvider.databaseSecret(secret), identity: "database secret (admin)"),
        ]
        let simulation = try await Simulation.start(options)
        let merged = try await until(simulation.changes) {
            let users = simulation.users
            return users.count == 3 && users[id: "cy"]?.lastOnline == UnixTime(millisecondsSince1970: 300)
                && users[id: "bo"]?.isOnline == true
        }
        #expect(merged, "\(simulation.users.map { $0 })")
        let users = simulation.users
        #expect(users[id: "ana"]?.isOnline == true && users[id: "ana"]?.connections.count == 1)
        #expect(users[id: "ana"]?.sources == 0b011 && users[id: "ana"]?.onlineSources == 0b001)
        #expect(users[id: "ana"]?.lastOnline == UnixTime(millisecondsSince1970: 150))
        #expect(users[id: "bo"]?.sources == 0b010)
        #expect(users[id: "cy"]?.isOnline == false && users[id: "cy"]?.sources == 0b101)

        var snapshot = simulation.snapshot()
        #expect(snapshot.feeds.map(\.users) == [2, 2, 1])
        #expect(snapshot.feeds.map(\.identity) == ["emulator user", "emulator user", "database secret (admin)"])
        #expect(snapshot.feeds.allSatisfy(\.listLoaded) && snapshot.usersFeed.loaded)
        #expect(snapshot.staleFeeds(now: snapshot.takenAt) == 0)

        // A change on one shard reaches the directory: bo connects on the first as well.
        try await one.reference(withPath: "users/bo/connections/-Nbo1").setValue(true)
        #expect(try await until(simulation.changes) { simulation.users[id: "bo"]?.sources == 0b011 })

        // The second is lost: what it said stays, marked as its, and bo, online on the first,
        // stays online.
        link.mode = .offline
        let lost = try await eventually {
            let snapshot = simulation.snapshot()
            return snapshot.staleFeeds(now: snapshot.takenAt) == 0b010
        }
        #expect(lost, "\(simulation.snapshot().feeds)")
        snapshot = simulation.snapshot()
        #expect(snapshot.users.count == 3)
        #expect(snapshot.users[id: "bo"]?.isOnline == true && snapshot.users[id: "bo"]?.onlineSources == 0b011)
        #expect(snapshot.feeds[0].status.phase.isConnected && snapshot.feeds[2].status.phase.isConnected)

        // Back: live again, and a change made meanwhile arrives.
        try await two.reference(withPath: "status/bo/state").setValue("offline")
        link.mode = .up
        #expect(try await until(simulation.changes) { simulation.users[id: "bo"]?.onlineSources == 0b001 })
        await simulation.stop()
        await link.stop()
        for server in [first, second, third] { await server.stop() }
    }

    @Test func aDatabaseWhoseRulesRefuseTheListSaysSo() async throws {
        let open = try await TestServer.start()
        let closed = try await TestServer.start(configure: {
            $0.rules = (try? SecurityRules(text: #"{"rules": {".read": false, ".write": false}}"#)) ?? .open
        })
        var options = SimulationOptions()
        options.server = .remote(ServerTarget(host: "127.0.0.1", port: open.port, namespace: "a"))
        options.readOnly = true
        options.otherDatabases = [
            WatchedDatabase(target: ServerTarget(host: "127.0.0.1", port: closed.port, namespace: "b"))
        ]
        let simulation = try await Simulation.start(options)
        let refused = try await eventually { simulation.snapshot().feeds.last?.refusal != nil }
        #expect(refused, "\(simulation.snapshot().feeds)")
        let feed = simulation.snapshot().feeds.last
        #expect(feed?.refusal?.lowercased().contains("permission") == true, "\(String(describing: feed))")
        #expect(feed?.listLoaded == false)
        await simulation.stop()
        await open.stop()
        await closed.stop()
    }
}
