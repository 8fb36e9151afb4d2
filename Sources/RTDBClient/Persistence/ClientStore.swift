import Foundation
import GRDB
import Logging
import RTDBCore
import Synchronization

/// One database URL's offline state in one SQLite file (GRDB, WAL, versioned migrations): the
/// server cache, the user write queue and its dead letters, tracked queries and their keys,
/// keepSynced flags, and small settings (instance id, credential).
///
/// Writes come from the repo's serial queue; reads may also come from a start-up prefetch on
/// another thread (a pool: readers run beside the writer in WAL mode). `synchronous = NORMAL`
/// in WAL mode: a committed write survives the process being killed; a power cut may lose the
/// last commits, never the file's consistency.
final class ClientStore: Sendable {
    let queue: DatabasePool
    /// The file's path.
    let path: String
    /// Whether the file takes writes (every write transaction reports there).
    let health: StoreHealth
    /// Transactions started with ``transactionLater(_:failed:)`` and not yet committed.
    private let transactionsInFlight = Atomic<Int>(0)

    /// Opens (creating if needed) the file at `path`.
    init(
        path: String, clock: @escaping @Sendable () -> UnixTime = { UnixTime.now() },
        logger: Logger = Logger(label: "presencetop.client.store")
    ) throws {
        self.path = path
        health = StoreHealth(clock: clock, logger: logger)
        var configuration = Configuration()
        configuration.label = "presencetop.client.store"
        // Another connection to the file may hold a lock for a moment: an instance just closed
        // checkpoints its WAL, another process writes. Wait for it rather than fail the open
        // (which would leave the instance without persistence).
        configuration.busyMode = .timeout(10)
        // The pool puts the file in WAL mode.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        queue = try DatabasePool(path: path, configuration: configuration)
        try ClientStore.migrator.migrate(queue)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // A dead letter is a queued write plus why and when it was refused: both tables share
            // the write's columns.
            let write = """
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                path TEXT NOT NULL,
                data TEXT NOT NULL,
                name TEXT,
                enqueued_at INTEGER NOT NULL,
                """
            try db.execute(
                sql: """
                    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE writes (\(write) attempts INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE dead_letters (
                        \(write) attempts INTEGER NOT NULL, failed_at INTEGER NOT NULL, status TEXT NOT NULL,
                        reason TEXT NOT NULL);
                    CREATE TABLE server_cache (path TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE tracked_queries (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL,
                        params TEXT NOT NULL,
                        last_use INTEGER NOT NULL,
                        complete INTEGER NOT NULL,
                        active INTEGER NOT NULL
                    );
                    CREATE TABLE tracked_keys (query_id INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (query_id, key));
                    CREATE TABLE keep_synced (path TEXT NOT NULL, params TEXT NOT NULL, PRIMARY KEY (path, params));
                    """)
        }
        return migrator
    }

    /// Runs `body` in one write transaction, telling ``health`` whether the file took it.
    func transaction<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        do {
            let result = try queue.write(body)
            health.written()
            return result
        } catch {
            health.failed(error)
            throw error
        }
    }

    /// Runs `body` in one transaction on the writer's queue, without waiting for it; `failed`
    /// hears of an error.
    ///
    /// Later transactions wait for it (one writer queue); a read must first call
    /// ``waitForLaterTransactions()``, or it may run on a reader beside it and miss it.
    func transactionLater(
        _ body: @escaping @Sendable (GRDB.Database) throws -> Void,
        failed: @escaping @Sendable (any Error) -> Void
    ) {
        transactionsInFlight.add(1, ordering: .relaxed)
        queue.asyncWrite(body) { [self] _, result in
            switch result {
            case .success: health.written()
            case .failure(let error):
                health.failed(error)
                failed(error)
            }
            transactionsInFlight.subtract(1, ordering: .releasing)
        }
    }

    /// Closes the database files now (`Database.close()`), once the transactions already started
    /// have committed, instead of whenever the last reference to this store goes.
    func close() throws {
        waitForLaterTransactions()
        try queue.close()
    }

    /// Returns once every transaction started with ``transactionLater(_:failed:)`` has committed.
    func waitForLaterTransactions() {
        guard transactionsInFlight.load(ordering: .acquiring) > 0 else { return }
        // The writer's queue runs in order: an empty write there comes after them.
        queue.writeWithoutTransaction { _ in }
    }

    // MARK: - Settings

    func setting(_ name: String) throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE name = ?", arguments: [name])
        }
    }

    func setSetting(_ name: String, _ value: String?) throws {
        try transaction { db in
            if let value {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)", arguments: [name, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE name = ?", arguments: [name])
            }
        }
    }

    // MARK: - Write queue

    func insertWrite(_ write: StoredWrite, dataText: String? = nil) throws {
        try transaction { db in
            // Cached statements: parsing and authorizing the SQL for every write costs as much as
            // the insert itself.
            try db.cachedStatement(
                sql:
                    "INSERT INTO writes (id, kind, path, data, name, enqueued_at, attempts) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [
                write.id, write.kind.rawValue, write.path.description, dataText ?? write.data.jsonString, write.name,
                write.enqueuedAt.millisecondsSince1970, write.attempts,
            ])
            try ClientStore.noteWriteID(write.id, in: db)
        }
    }

    /// Records that a write id was used by a write that is not stored (a transaction), so that
    /// no later write, after a restart, uses it again.
    func noteWriteID(_ id: Int) throws {
        try transaction { db in try ClientStore.noteWriteID(id, in: db) }
    }

    /// Ids are never used twice, even after the queue empties: an id names the write in its
    /// idempotency key, and the server remembers keys (a reused one would be taken for a write it
    /// already applied, and the new write silently dropped).
    private static func noteWriteID(_ id: Int, in db: GRDB.Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO meta (name, value) VALUES ('last_write_id', ?)
                ON CONFLICT(name) DO UPDATE SET value = max(CAST(value AS INTEGER), excluded.value)
                """
        ).execute(arguments: [id])
    }

    func removeWrite(_ id: Int) throws {
        try transaction { db in try db.cachedStatement(sql: "DELETE FROM writes WHERE id = ?").execute(arguments: [id])
        }
    }

    func setData(_ id: Int, _ data: JSONValue) throws {
        try transaction { db in
            try db.execute(sql: "UPDATE writes SET data = ? WHERE id = ?", arguments: [data.jsonString, id])
        }
    }

    /// Deletes acknowledged writes and saves attempt counts, in one transaction.
    func updateQueue(removing ids: [Int], attempts: [Int: Int], in db: GRDB.Database) throws {
        try deleteQueuedWrites(ids, in: db)
        try saveAttempts(attempts, in: db)
    }

    /// How many writes are queued.
    func queuedWriteCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM writes") ?? 0 }
    }

    /// The queue in write-id order, read on a thread of its own and handed over a chunk at a time
    /// (the first small, so that the caller starts soon).
    func readWrites(firstChunk: Int = 256, chunk: Int = 1024) -> ChunkedRead<StoredWrite> {
        ChunkedRead { [queue] yield in
            try queue.read { db in
                var rows: [StoredWrite] = []
                var size = firstChunk
                rows.reserveCapacity(size)
                try ClientStore.forEachRow(db, sql: Self.queueSQL) { row in
                    rows.append(Self.storedWrite(row))
                    guard rows.count == size else { return }
                    guard yield(rows) else { throw ChunkedRead<StoredWrite>.Stopped() }
                    size = chunk
                    rows = []
                    rows.reserveCapacity(size)
                }
                if !rows.isEmpty { _ = yield(rows) }
            }
        }
    }

    private static let queueSQL = "SELECT id, kind, path, data, name, enqueued_at, attempts FROM writes ORDER BY id"

    /// A queue row as a write; its data stays text until something needs it (a long queue's
    /// start parses none).
    private static func storedWrite(_ row: RawRow) -> StoredWrite {
        StoredWrite(
            id: row.int(0), kind: PendingWrite.Kind(rawValue: row.string(1)) ?? .set, path: Path(utf8: row.bytes(2)),
            dataText: row.string(3), name: row.optionalString(4),
            enqueuedAt: UnixTime(millisecondsSince1970: Int64(row.int(5))), attempts: row.int(6))
    }

    func insertDeadLetter(_ letter: StoredWrite, failedAt: UnixTime, status: String, reason: String) throws {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO dead_letters
                        (id, kind, path, data, name, enqueued_at, attempts, failed_at, status, reason)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    letter.id, letter.kind.rawValue, letter.path.description, letter.data.jsonString, letter.name,
                    letter.enqueuedAt.millisecondsSince1970, letter.attempts, failedAt.millisecondsSince1970, status,
                    reason,
                ])
        }
    }

    func removeDeadLetter(_ id: Int) throws {
        try transaction { db in try db.execute(sql: "DELETE FROM dead_letters WHERE id = ?", arguments: [id]) }
    }

    func loadDeadLetters() throws -> [(write: StoredWrite, failedAt: UnixTime, status: String, reason: String)] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM dead_letters ORDER BY id").map { row in
                (
                    try StoredWrite(row: row), UnixTime(millisecondsSince1970: row["failed_at"]), row["status"],
                    row["reason"]
                )
            }
        }
    }

    /// The highest write id ever used here (queue and dead letters), so ids never repeat.
    func highestWriteID() throws -> Int {
        try queue.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT max(m) FROM (
                        SELECT max(id) AS m FROM writes
                        UNION ALL SELECT max(id) FROM dead_letters
                        UNION ALL SELECT CAST(value AS INTEGER) FROM meta WHERE name = 'last_write_id')
                    """) ?? 0
        }
    }
}
