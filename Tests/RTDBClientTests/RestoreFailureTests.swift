import Foundation
import GRDB
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// A restart whose queue cannot be read to its end (a page of the file damaged) shows none of it:
/// the queue is replayed a chunk at a time as it is read, and the chunks replayed before the
/// damage are taken back.
@Suite struct RestoreFailureTests {
    @Test func aQueueUnreadablePartOfTheWayIsNotShownAtAll() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start()
        let first = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        first.goOffline()
        // About a page a write, so that the file's last quarter holds the queue's last rows.
        let filler = String(repeating: "x", count: 2_000)
        for index in 0..<2_000 {
            first.reference(withPath: "queue/q\(index)").setValue(["n": index, "t": filler], andPriority: nil)
        }
        await first.barrier()
        #expect(first.pendingWrites.count == 2_000)
        first.close()

        let file = try #require(
            try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .first { $0.pathExtension == "sqlite" })
        let readable = try Self.damagePage(of: file, atFraction: 0.75)
        #expect(readable >= 1_024, "the damage lies past the first chunks (\(readable) rows readable before it)")

        let again = PersistenceIntegrationTests.client(port: server.port, directory: directory)
        again.goOffline()
        // The first write was in the first chunk replayed: had it stayed, its value would show.
        let seen = Recorder<String>()
        again.reference(withPath: "queue/q0").observe(.value) { seen.record($0.exists() ? "data" : "null") }
        await again.barrier()
        #expect(seen.all.isEmpty, "nothing of the queue is shown offline: \(seen.all)")
        #expect(again.pendingWrites.isEmpty)
        #expect(again.pendingWriteBytes == 0, "none of it counts against the queue's bound either")
        #expect(
            again.storeFailure?.reason.contains("could not be read") == true,
            "\(String(describing: again.storeFailure))")
        let answers = Recorder<String>()
        again.reference(withPath: "later").setValue("not saved") { error, _ in
            answers.record(ServerDiskFaultTests.code(error))
        }
        #expect(await answers.wait { $0 == ["store_failed"] })
        again.goOnline()
        #expect(await seen.wait { !$0.isEmpty }, "the server's answer is shown")
        #expect(seen.all.allSatisfy { $0 == "null" }, "and only it: \(seen.all)")
        again.close()
        await server.stop()
    }

    /// Fills a page at `fraction` of `file` with bytes SQLite cannot read as a page, and returns
    /// how many queue rows a scan in id order reads before it meets the damage.
    static func damagePage(of file: URL, atFraction fraction: Double) throws -> Int {
        let pageSize = 4_096
        let handle = try FileHandle(forUpdating: file)
        let size = try handle.seekToEnd()
        let page = Int(Double(size) / Double(pageSize) * fraction)
        try handle.seek(toOffset: UInt64(page * pageSize))
        handle.write(Data(repeating: 0xFF, count: pageSize))
        try handle.close()
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        var rows = 0
        do {
            try queue.read { db in
                let cursor = try Int.fetchCursor(db, sql: "SELECT id FROM writes ORDER BY id")
                while try cursor.next() != nil { rows += 1 }
            }
        } catch {
            return rows
        }
        Issue.record("the damaged page did not stop the scan (\(rows) rows)")
        return rows
    }
}
