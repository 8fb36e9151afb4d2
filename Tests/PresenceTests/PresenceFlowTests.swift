import Foundation
import LinkSim
import Presence
import PresenceLab
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

        /// With `time`, the device's timers run on it.
        static func make(server: TestServer, user: String, name: String, time: TestTime? = nil) async throws -> Device {
            let link = try LinkProxy(upstreamPort: server.port)
            let port = try await link.start()
            let url = "http://127.0.0.1:\(port)?ns=demo"
            let database = time.map { Database(url: url, time: $0.source) } ?? Database(url: url)
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

        #expect(try await until(watcherDatabase.changes) { Self.user(directory, "morgan")?.connections.count == 2 })
        let morgan = try #require(Self.user(directory, "morgan"))
        #expect(Set(morgan.connections.compactMap(\.device)) == ["phone", "laptop"])
        #expect(
            morgan.connections.allSatisfy { ($0.connectedAt?.millisecondsSince1970 ?? 0) > 1_700_000_000_000 },
            "server times")
        #expect(morgan.isOnline && morgan.lastOnline == nil)

        // The phone loses its network: its entry goes at once, the laptop keeps morgan online.
        phone.link.mode = .offline
        #expect(
            try await until(watcherDatabase.changes) {
                Self.user(directory, "morgan")?.connections.map(\.device) == ["laptop"]
            })
        // The removal and lastOnline are two writes: the watcher may see one before the other.
        #expect(
            try await until(watcherDatabase.changes) { Self.user(directory, "morgan")?.lastOnline != nil },
            "the phone's lastOnline")

        // The laptop signs out: morgan is offline, last seen just now.
        let before = try #require(Self.user(directory, "morgan")?.lastOnline)
        laptop.session.stop()
        #expect(try await until(watcherDatabase.changes) { Self.user(directory, "morgan")?.isOnline == false })
        #expect(
            try await until(watcherDatabase.changes) {
                (Self.user(directory, "morgan")?.lastOnline ?? .epoch) >= before
            })

        // The phone's network returns: one new entry, not two.
        phone.link.mode = .up
        #expect(
            try await until(watcherDatabase.changes) {
                Self.user(directory, "morgan")?.connections.map(\.device) == ["phone"]
            })
        #expect(phone.session.connectCount == 2)
        #expect(Self.user(directory, "morgan")?.connections.first?.id == phone.session.entryKey)

        await phone.close()
        await laptop.close()
        watcherDatabase.close()
        await server.stop()
    }

    @Test func flappingLeavesOneEntryPerDevice() async throws {
        // The server's heartbeat and the phone's back-off run on time the test moves, so no
        // round depends on how busy the machine is. The presence list is read over REST: a
        // watcher's session would need its own pongs to arrive between ticks.
        let time = TestTime()
        let server = try await TestServer.start(time: time.source)
        let phone = try await Device.make(server: server, user: "sam", name: "phone", time: time)
        func entries() async throws -> [String] {
            let connections = try await http("GET", "/users/sam/connections.json", port: server.port).json
            return connections?.objectValue.map { $0.keys.map(\.string).sorted() } ?? []
        }
        #expect(try await until(server.server.metrics.changes) { try await entries().count == 1 })

        // The network drops and returns, again and again, each time in a different way; it
        // returns once the server has seen the phone's session end.
        for (round, mode) in [LinkMode.offline, .blackhole, .offline, .blackhole].enumerated() {
            #expect(try await until(phone.database.changes) { phone.database.connectionStatus.phase.isConnected })
            guard case .connected(let session) = phone.database.connectionStatus.phase else { continue }
            let connectsBefore = phone.session.connectCount
            phone.link.mode = mode
            // A reset is seen at once; a blackhole only by the server's heartbeat: a ping at 7.5 s
            // that nothing answers, and the end of the session at the next tick.
            func ended() -> Bool { !server.server.connections.connections.contains { $0.sessionID == session } }
            // Each move waits until the server has judged its tick, so none is taken as late.
            // A tick that judged the phone's session silent closes it: then its end is awaited
            // (the phone's is the server's only WebSocket session; presence is read over REST).
            for _ in 0..<4 where mode == .blackhole && !ended() {
                let (judged, silent) = (server.server.heartbeatTicksJudged, server.server.heartbeatSessionsJudgedSilent)
                await time.advance(by: .milliseconds(7_501))
                _ = try await until(server.server.metrics.changes) { server.server.heartbeatTicksJudged > judged }
                if server.server.heartbeatSessionsJudgedSilent > silent {
                    _ = try await until(server.server.connections.changes) { ended() }
                }
            }
            #expect(try await until(server.server.connections.changes) { ended() }, "round \(round): \(mode) noticed")
            phone.link.mode = .up
            // The phone learns its connection is gone, waits its back-off, and connects again.
            var retryAt: UnixTime?
            #expect(
                try await until(phone.database.changes) {
                    guard case .waitingToRetry(_, let at, _) = phone.database.connectionStatus.phase else {
                        return false
                    }
                    retryAt = at
                    return true
                })
            await time.advance(by: max(.zero, (retryAt ?? time.now) - time.now) + .milliseconds(1))
            #expect(
                try await until(phone.database.changes) { phone.session.connectCount > connectsBefore },
                "round \(round): reconnected after \(mode): \(phone.database.connectionStatus.phase) \(phone.link.stats)"
            )
        }
        #expect(
            try await until(server.server.metrics.changes) {
                try await entries() == [phone.session.entryKey].compactMap { $0 }
            })
        await phone.close()
        await server.stop()
    }
    /// An entry's write a crashed run left queued is removed after the restart.
    ///
    /// A device connects, registers its entry's removal, queues the entry's write, and dies
    /// before the server takes the write: the server runs the removal (nothing there yet), and the
    /// write, persisted, is sent when the device starts again. Here the dead run is built
    /// directly: the entry's write queued in the file while the link is down.
    ///
    /// With `acknowledgedFirst`, the replayed write is acknowledged before `.info/connected`
    /// reaches the session (a busy callback queue, held here): the queue no longer shows it then,
    /// and the session must know it from when it started (found by the chaos run, seed 684493).
    @Test(arguments: [false, true])
    func anEntryWriteACrashLeftQueuedIsRemovedAfterTheRestart(acknowledgedFirst: Bool) async throws {
        let server = try await TestServer.start()
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = try LinkProxy(upstreamPort: server.port)
        let port = try await link.start()
        let callbacks = DispatchQueue(label: "callbacks")
        func open() -> Database {
            let database = Database(url: "http://127.0.0.1:\(port)?ns=demo", callbackQueue: callbacks)
            database.persistenceDirectory = folder
            database.isPersistenceEnabled = true
            return database
        }
        link.mode = .offline
        let dead = open()
        let orphan = dead.reference(withPath: "users/kim/connections").childByAutoId()
        orphan.setValue(["device": "phone", "connectedAt": ServerValue.timestamp()], andPriority: nil)
        #expect(dead.pendingWrites.count == 1)
        dead.close()

        link.mode = .up
        let database = open()
        if acknowledgedFirst { callbacks.suspend() }
        let session = PresenceSession(database: database, userID: "kim", device: "phone")
        session.start()
        if acknowledgedFirst {
            // The replayed write is acknowledged while no callback can run.
            #expect(try await until(database.changes) { database.pendingWrites.isEmpty })
            callbacks.resume()
        }
        func entries() async throws -> [String] {
            let connections = try await http("GET", "/users/kim/connections.json", port: server.port).json
            return connections?.objectValue.map { $0.keys.map(\.string).sorted() } ?? []
        }
        // The replayed write lands, then its removal: only the new connection's entry stays.
        #expect(try await until(database.changes) { database.pendingWrites.isEmpty && session.entryKey != nil })
        #expect(
            try await until(server.server.metrics.changes) {
                try await entries() == [session.entryKey].compactMap { $0 }
            })
        #expect(try await entries().contains(orphan.key ?? "") == false)
        database.close()
        await link.stop()
        await server.stop()
    }
}
