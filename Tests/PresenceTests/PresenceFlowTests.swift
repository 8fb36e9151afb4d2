import Foundation
import LinkSim
import Presence
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// Devices behind their own fault-injecting links, a watcher on a direct connection, and a real
/// server: presence as the dashboard will show it.
@Suite struct PresenceFlowTests {
    /// One simulated device: its link, its database instance and its presence session.
    private struct Device {
        let link: LinkProxy
        let database: Database
        let session: PresenceSession

        static func make(server: TestServer, user: String, name: String) async throws -> Device {
            let link = try LinkProxy(upstreamPort: server.port)
            let port = try await link.start()
            let database = Database(url: "http://127.0.0.1:\(port)?ns=demo")
            let session = PresenceSession(database: database, userID: user, device: name)
            session.start()
            return Device(link: link, database: database, session: session)
        }

        func close() async {
            database.close()
            await link.stop()
        }
    }

    private static func watcher(_ server: TestServer) -> (Database, PresenceDirectory) {
        let database = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        let directory = PresenceDirectory(database: database)
        directory.start()
        return (database, directory)
    }

    private static func user(_ directory: PresenceDirectory, _ id: String) -> UserPresence? {
        directory.users.first { $0.id == id }
    }

    @Test func devicesComeAndGoAndLastOnlineFollows() async throws {
        let server = try await TestServer.start()
        let (watcherDatabase, directory) = Self.watcher(server)
        let phone = try await Device.make(server: server, user: "morgan", name: "phone")
        let laptop = try await Device.make(server: server, user: "morgan", name: "laptop")

        #expect(try await eventually { Self.user(directory, "morgan")?.connections.count == 2 })
        let morgan = try #require(Self.user(directory, "morgan"))
        #expect(Set(morgan.connections.compactMap(\.device)) == ["phone", "laptop"])
        #expect(morgan.connections.allSatisfy { ($0.connectedAt ?? 0) > 1_700_000_000_000 }, "server times")
        #expect(morgan.isOnline && morgan.lastOnline == nil)

        // The phone loses its network: its entry goes at once, the laptop keeps morgan online.
        phone.link.mode = .offline
        #expect(try await eventually { Self.user(directory, "morgan")?.connections.map(\.device) == ["laptop"] })
        // The removal and lastOnline are two writes: the watcher may see one before the other.
        #expect(try await eventually { Self.user(directory, "morgan")?.lastOnline != nil }, "the phone's lastOnline")

        // The laptop signs out: morgan is offline, last seen just now.
        let before = try #require(Self.user(directory, "morgan")?.lastOnline)
        laptop.session.stop()
        #expect(try await eventually { Self.user(directory, "morgan")?.isOnline == false })
        #expect(try await eventually { (Self.user(directory, "morgan")?.lastOnline ?? 0) >= before })

        // The phone's network returns: one new entry, not two.
        phone.link.mode = .up
        #expect(try await eventually { Self.user(directory, "morgan")?.connections.map(\.device) == ["phone"] })
        #expect(phone.session.connectCount == 2)
        #expect(Self.user(directory, "morgan")?.connections.first?.id == phone.session.entryKey)

        await phone.close()
        await laptop.close()
        watcherDatabase.close()
        await server.stop()
    }

    @Test func flappingLeavesOneEntryPerDevice() async throws {
        let server = try await TestServer.start(heartbeatTimeout: .seconds(3))
        let (watcherDatabase, directory) = Self.watcher(server)
        let phone = try await Device.make(server: server, user: "sam", name: "phone")
        #expect(try await eventually { Self.user(directory, "sam")?.connections.count == 1 })

        // The network drops and returns, again and again, each time in a different way; it
        // returns once the server has seen the phone's session end. (A loaded machine can miss
        // a heartbeat and end a healthy session too, the watcher's say: the phone's is named.)
        for (round, mode) in [LinkMode.offline, .blackhole, .offline, .blackhole].enumerated() {
            #expect(try await eventually { phone.database.connectionStatus.phase.isConnected })
            guard case .connected(let session) = phone.database.connectionStatus.phase else { continue }
            let connectsBefore = phone.session.connectCount
            phone.link.mode = mode
            #expect(
                try await eventually { !server.server.connections.connections.contains { $0.sessionID == session } },
                "\(mode) noticed")
            phone.link.mode = .up
            // The client backs off as the SDKs do (from 1 s, ×1.3 a failure, up to 30 s), and refused
            // retries add up over the rounds: the reconnect may take a while.
            #expect(
                try await eventually(attempts: 1_200) { phone.session.connectCount > connectsBefore },
                "round \(round): reconnected after \(mode): \(phone.database.connectionStatus.phase) \(phone.link.stats)"
            )
        }
        #expect(try await eventually { Self.user(directory, "sam")?.connections.count == 1 })
        try await Task.sleep(for: .milliseconds(500))
        let sam = try #require(Self.user(directory, "sam"))
        #expect(sam.connections.map(\.id) == [phone.session.entryKey].compactMap { $0 }, "no ghost entries")

        await phone.close()
        watcherDatabase.close()
        await server.stop()
    }
}
