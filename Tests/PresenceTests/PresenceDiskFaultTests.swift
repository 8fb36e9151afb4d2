import Foundation
import Presence
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// The presence flow when a disk is full (the fault-injecting SQLite VFS on real files): an
/// online device shows once the disk has room, with its removal armed, never absent for good.
@Suite struct PresenceDiskFaultTests {
    @Test func aConnectTheServerCouldNotStoreIsMadeAgainUntilItIs() async throws {
        let disk = try FaultyDisk(files: "demo.")
        let server = try await TestServer.start(dataDirectory: disk.folder)
        let watcher = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        let directory = PresenceDirectory(database: watcher)
        directory.start()
        disk.fill(after: 0)

        let device = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        let session = PresenceSession(
            database: device, userID: "kim", device: "phone", retryDelay: .milliseconds(50))
        session.start()
        #expect(
            try await until(device.changes) { disk.failures > 0 && session.connectCount >= 2 },
            "refused, then made again")
        #expect(!session.isArmed)

        disk.fill(after: nil)
        #expect(try await until(device.changes) { session.isArmed }, "the lastOnline onDisconnect is stored at last")
        #expect(try await until(watcher.changes) { directory.users.first { $0.id == "kim" }?.connections.count == 1 })
        let shown = directory.users.first { $0.id == "kim" }?.connections.first?.id
        #expect(shown == session.entryKey, "the current connect's entry, none of the refused ones")

        // Its removal was armed with it: the device goes, and so does its entry.
        device.close()
        #expect(try await until(watcher.changes) { directory.users.first { $0.id == "kim" }?.isOnline == false })
        watcher.close()
        await server.stop()
    }
}
