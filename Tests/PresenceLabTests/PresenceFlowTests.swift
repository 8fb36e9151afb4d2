import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// Devices behind their own fault-injecting links, a watcher on a link that never fails, and a
/// server in this process, on a clock the test moves: presence as the dashboard will show it.
@Suite struct PresenceFlowTests {
    /// One simulated device: its link, its database instance and its presence session.
    private struct Device {
        let link: SimulatedLink
        let database: Database
        let session: PresenceSession

        static func make(_ network: SimulatedNetwork, user: String, name: String) -> Device {
            let (link, database) = network.device(name)
            let session = PresenceSession(database: database, userID: user, device: name)
            session.start()
            return Device(link: link, database: database, session: session)
        }
    }

    private static func watcher(_ network: SimulatedNetwork) -> (Database, PresenceDirectory) {
        let (_, database) = network.device("watcher")
        let directory = PresenceDirectory(database: database)
        directory.start()
        return (database, directory)
    }

    private static func user(_ directory: PresenceDirectory, _ id: String) -> UserPresence? {
        directory.users.first { $0.id == id }
    }

    @Test func devicesComeAndGoAndLastOnlineFollows() async throws {
        let network = try await SimulatedNetwork.start()
        let (watcherDatabase, directory) = Self.watcher(network)
        let phone = Device.make(network, user: "morgan", name: "phone")
        let laptop = Device.make(network, user: "morgan", name: "laptop")

        #expect(try await until(watcherDatabase.changes) { Self.user(directory, "morgan")?.connections.count == 2 })
        let morgan = try #require(Self.user(directory, "morgan"))
        #expect(Set(morgan.connections.compactMap(\.device)) == ["phone", "laptop"])
        #expect(morgan.connections.allSatisfy { $0.connectedAt == SimulatedNetwork.start }, "server times")
        #expect(morgan.isOnline && morgan.lastOnline == nil)

        // The phone loses its network: its entry goes at once, the laptop keeps morgan online.
        await network.time.advance(by: .seconds(5))
        phone.link.mode = .offline
        #expect(
            try await until(watcherDatabase.changes) {
                Self.user(directory, "morgan")?.connections.map(\.device) == ["laptop"]
            })
        // The removal and lastOnline are two writes: the watcher may see one before the other.
        #expect(
            try await until(watcherDatabase.changes) {
                Self.user(directory, "morgan")?.lastOnline == SimulatedNetwork.start + .seconds(5)
            }, "the phone's lastOnline, at the server's time of the reset")

        // The laptop signs out: morgan is offline, last seen just now.
        await network.time.advance(by: .seconds(5))
        laptop.session.stop()
        #expect(try await until(watcherDatabase.changes) { Self.user(directory, "morgan")?.isOnline == false })
        #expect(
            try await until(watcherDatabase.changes) {
                Self.user(directory, "morgan")?.lastOnline == SimulatedNetwork.start + .seconds(10)
            })

        // The phone's network returns: after its back-off, one new entry, not two.
        phone.link.mode = .up
        let back = await network.run(upTo: .seconds(60), settling: [phone.database, watcherDatabase]) {
            Self.user(directory, "morgan")?.connections.map(\.device) == ["phone"]
        }
        #expect(back, "\(phone.database.connectionStatus.phase)")
        #expect(phone.session.connectCount == 2)
        #expect(Self.user(directory, "morgan")?.connections.first?.id == phone.session.entryKey)
        await network.tearDown([phone.database, laptop.database, watcherDatabase])
    }

    /// The entries under a user's connections, as the server holds them.
    private static func entries(_ network: SimulatedNetwork, of user: String) async -> [String] {
        let connections = await network.server.read("users/\(user)/connections")
        return connections?.objectValue.map { $0.keys.map(\.string).sorted() } ?? []
    }

    @Test func flappingLeavesOneEntryPerDevice() async throws {
        let network = try await SimulatedNetwork.start()
        let phone = Device.make(network, user: "sam", name: "phone")
        // The network drops and returns, again and again, each time in a different way; it
        // returns once the server has seen the phone's session end (a reset at once, a
        // blackhole by the heartbeat on the server's end of the link).
        for (round, mode) in [LinkMode.offline, .blackhole, .offline, .blackhole].enumerated() {
            let up = await network.run(upTo: .seconds(60), settling: [phone.database]) {
                let count = await Self.entries(network, of: "sam").count
                return phone.session.isArmed && count == 1
            }
            #expect(up, "round \(round): connected with one entry")
            let connectsBefore = phone.session.connectCount
            phone.link.mode = mode
            let ended = await network.run(upTo: .seconds(150), settling: [phone.database]) {
                await Self.entries(network, of: "sam").isEmpty
            }
            #expect(ended, "round \(round): \(mode) noticed")
            phone.link.mode = .up
            let back = await network.run(upTo: .seconds(90), settling: [phone.database]) {
                phone.session.connectCount > connectsBefore
            }
            #expect(back, "round \(round): reconnected after \(mode): \(phone.database.connectionStatus.phase)")
        }
        let one = await network.run(upTo: .seconds(30), settling: [phone.database]) {
            await Self.entries(network, of: "sam") == [phone.session.entryKey].compactMap { $0 }
        }
        let left = await Self.entries(network, of: "sam")
        #expect(one, "\(left) vs \(String(describing: phone.session.entryKey))")
        await network.tearDown([phone.database])
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
        let network = try await SimulatedNetwork.start()
        let callbacks = DispatchQueue(label: "callbacks")
        let (link, dead) = network.device("phone", persistence: "phone.sqlite", callbackQueue: callbacks)
        link.mode = .offline
        let orphan = dead.reference(withPath: "users/kim/connections").childByAutoId()
        orphan.setValue(["device": "phone", "connectedAt": ServerValue.timestamp()], andPriority: nil)
        #expect(dead.pendingWrites.count == 1)
        dead.close()
        await link.stop()

        let (_, database) = network.device("phone", persistence: "phone.sqlite", callbackQueue: callbacks)
        if acknowledgedFirst { callbacks.suspend() }
        let session = PresenceSession(database: database, userID: "kim", device: "phone")
        session.start()
        if acknowledgedFirst {
            // The replayed write is acknowledged while no callback can run.
            #expect(try await until(database.changes) { database.pendingWrites.isEmpty })
            callbacks.resume()
        }
        // The replayed write lands, then its removal: only the new connection's entry stays.
        #expect(try await until(database.changes) { database.pendingWrites.isEmpty && session.entryKey != nil })
        // The session names its entry as its connect begins, on the callback queue; the removals
        // that connect queues come after (seen once in a loaded full run: the check ran between
        // the two). The callback queue's barrier comes after the connect, so its writes are queued.
        await database.barrier()
        await database.waitForPendingWrites()
        try await database.serverRoundTrip()
        #expect(await Self.entries(network, of: "kim") == [session.entryKey].compactMap { $0 })
        #expect(await Self.entries(network, of: "kim").contains(orphan.key ?? "") == false)
        await network.tearDown([database])
    }
}
