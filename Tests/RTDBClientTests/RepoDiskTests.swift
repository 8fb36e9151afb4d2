import Foundation
import GRDB
import Logging
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// The repo's disk alone, on a real SQLite file: what an earlier run left for the next start,
/// keepSynced across runs, and acknowledgements saved together or taken back whole.
@Suite struct RepoDiskTests {
    static let clock: WallClock = { UnixTime(millisecondsSince1970: 1_700_000_000_000) }

    static func open(_ file: URL) throws -> RepoDisk {
        try RepoDisk(
            settings: PersistenceSettings(file: file, cacheSizeBytes: 10_000_000), clock: clock,
            logger: Logger(label: "test"), readAhead: ReadAhead())
    }

    static func write(_ id: Int, at path: String) -> StoredWrite {
        StoredWrite(id: id, kind: .set, path: Path(path), data: .number(.int(Int64(id))), enqueuedAt: clock())
    }

    /// A new file (in a folder that did not exist) takes the instance id it is given; the next
    /// start gets that id back, whatever it offers, with the next write id past the queue's and
    /// the settings saved.
    @Test func theNextStartGetsThisRunsIdentityBack() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("new/folder/db.sqlite")
        do {
            let disk = try Self.open(file)
            let first = try disk.identity(newInstanceID: "first", hostKey: "demo.example")
            #expect(first == RepoDisk.Identity(instanceID: "first", nextWriteID: 1, credential: nil, host: nil))
            let queue = PendingWriteQueue(store: disk.store, logger: Logger(label: "test"))
            try queue.add(Self.write(7, at: "a"), within: 1 << 20)
            disk.save(setting: "credential", "token-1")
            disk.save(setting: RepoDisk.hostSetting("demo.example"), "s-1.example")
            disk.save(setting: RepoDisk.hostSetting("other.example"), "s-2.example")
            disk.close()
        }
        let again = try Self.open(file)
        defer { again.close() }
        let second = try again.identity(newInstanceID: "second", hostKey: "demo.example")
        #expect(
            second == RepoDisk.Identity(instanceID: "first", nextWriteID: 8, credential: "token-1", host: "s-1.example")
        )
        again.save(setting: "credential", nil)
        #expect(try again.identity(newInstanceID: "x", hostKey: "none").credential == nil, "nil forgets it")
    }

    /// keepSynced is kept for the next run and, restored, kept synced in the cache again.
    @Test func keepSyncedOutlivesTheRun() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("db.sqlite")
        let kept = QuerySpec.default(Path("rooms/lobby"))
        do {
            let disk = try Self.open(file)
            disk.setKeptSynced(kept, true)
            disk.setKeptSynced(.default(Path("gone")), true)
            disk.setKeptSynced(.default(Path("gone")), false)
            #expect(disk.cache.keptSynced == [kept])
            disk.close()
        }
        let again = try Self.open(file)
        defer { again.close() }
        #expect(again.cache.keptSynced.isEmpty, "nothing kept synced until restored")
        #expect(try again.restoreKeepSynced() == [kept])
        #expect(again.cache.keptSynced == [kept])
    }

    /// An acknowledgement whose save fails (SQLite refuses the delete) is taken back whole, and
    /// saved with the next batch; one saved later on the writer's queue hands its failure to the
    /// repo's closure, and nothing of it is lost either.
    @Test func aFailedSaveIsTakenBackWhole() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try Self.open(folder.appendingPathComponent("db.sqlite"))
        defer { disk.close() }
        let queue = PendingWriteQueue(store: disk.store, logger: Logger(label: "test"))
        for id in 1...3 { try queue.add(Self.write(id, at: "w\(id)"), within: 1 << 20) }
        queue.remove(1)
        try disk.store.queue.write { db in
            try db.execute(
                sql: "CREATE TRIGGER refuse BEFORE DELETE ON writes BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        }
        disk.saveAcknowledgements(of: queue, waiting: true) { _ in Issue.record("a waiting save takes back itself") }
        #expect(queue.hasUnsaved, "taken back")
        #expect(try disk.store.queuedWriteCount() == 3)

        queue.remove(2)
        let handedBack = Mutex<RepoDisk.Acknowledgements?>(nil)
        disk.saveAcknowledgements(of: queue, waiting: false) { unsaved in handedBack.withLock { $0 = unsaved } }
        #expect(!queue.hasUnsaved, "taken for the later save")
        disk.store.waitForLaterTransactions()
        let unsaved = try #require(handedBack.withLock { $0 })
        #expect(unsaved.removals.sorted() == [1, 2])
        disk.takeBack(unsaved, into: queue)

        try disk.store.queue.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        disk.saveAcknowledgements(of: queue, waiting: true) { _ in }
        #expect(!queue.hasUnsaved)
        #expect(try disk.store.queuedWriteCount() == 1)
    }
}
