import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// This device's store on a disk that fills up (a fault-injecting SQLite VFS on the client's real
/// file), against a real server on loopback.
@Suite struct DeviceDiskFaultTests {
    @Test func aWriteTheStoreCannotSaveIsRefusedAtOnceAndQueuedOnesAreStillSentOnce() async throws {
        let disk = try FaultyDisk()
        let server = try await TestServer.start()
        let client = PersistenceIntegrationTests.client(port: server.port, directory: disk.folder)
        client.goOffline()
        let answers = Recorder<String>()
        client.reference(withPath: "queued").setValue("before the disk filled") { error, _ in
            answers.record("queued " + ServerDiskFaultTests.code(error))
        }
        #expect(client.pendingWrites.count == 1)

        disk.fill(after: 0)
        let seen = Recorder<String>()
        client.reference(withPath: "refused").observe(.value) { snapshot in seen.record("\(snapshot.value ?? "nil")") }
        client.reference(withPath: "refused").setValue("not saved") { error, _ in
            answers.record("refused " + ServerDiskFaultTests.code(error))
        }
        #expect(await answers.wait { $0.contains("refused store_failed") })
        #expect(client.pendingWrites.count == 1, "neither queued…")
        await client.barrier()
        #expect(!seen.all.contains("not saved"), "…nor applied: \(seen.all)")
        let failing = try #require(client.cacheReport()?.storeFailure, "the cache report says the store fails")
        #expect(failing.reason.contains("full"), "\(failing.reason)")

        // Queued before, still sent; its acknowledgement cannot be saved yet and is kept.
        client.goOnline()
        #expect(await answers.wait { $0.contains("queued ok") })
        #expect(try await http("GET", "/queued.json?ns=demo", port: server.port).json == "before the disk filled")

        disk.fill(after: nil)
        client.reference(withPath: "later").setValue("saved") { error, _ in
            answers.record("later " + ServerDiskFaultTests.code(error))
        }
        #expect(await answers.wait { $0.contains("later ok") })
        #expect(try await until(client.changes) { client.cacheReport()?.storeFailure == nil }, "writes work again")
        client.close()

        // The acknowledgement was saved after all: nothing is sent again after a restart.
        let again = PersistenceIntegrationTests.client(port: server.port, directory: disk.folder)
        #expect(again.pendingWrites.isEmpty, "\(again.pendingWrites)")
        again.close()
        await server.stop()
    }

    /// Was: a store that could not be opened (the disk full as the app started) left the device
    /// without persistence, taking writes into memory only, which a crash would lose.
    @Test func aStoreThatCannotBeOpenedRefusesWritesAndTheDeviceStillReads() async throws {
        let disk = try FaultyDisk()
        let server = try await TestServer.start()
        #expect(
            try await http("PUT", "/shared.json?ns=demo", port: server.port, body: "\"from the server\"").status == 200)
        disk.fill(after: 0)
        let client = PersistenceIntegrationTests.client(port: server.port, directory: disk.folder)
        let answers = Recorder<String>()
        client.reference(withPath: "mine").setValue("not saved") { error, _ in
            answers.record(ServerDiskFaultTests.code(error))
        }
        #expect(await answers.wait { $0 == ["store_failed"] })
        #expect(
            client.storeFailure?.reason.contains("could not be opened") == true,
            "\(String(describing: client.storeFailure))")
        #expect(client.pendingWrites.isEmpty)
        let read = Recorder<String>()
        client.reference(withPath: "shared").observe(.value) { snapshot in read.record("\(snapshot.value ?? "nil")") }
        #expect(await read.wait { $0.contains("from the server") }, "reads go on")
        #expect(try await http("GET", "/mine.json?ns=demo", port: server.port).json == .null)
        client.close()
        await server.stop()
    }
}
