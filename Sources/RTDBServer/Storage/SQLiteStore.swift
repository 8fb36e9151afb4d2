import Foundation
import GRDB
import RTDBCore
import RawSQLite

/// A namespace's data in one SQLite file (GRDB, WAL, `synchronous=FULL`): an append-only log of
/// resolved writes plus a snapshot of the tree split by top-level key, compacted at checkpoints.
///
/// A write is durable once the transaction holding its log row commits, so acknowledged writes
/// survive `kill -9` and power loss. Many writes share one commit (group commit).
public final class SQLiteStore: DurableStore {
    private let queue: DatabaseQueue

    /// The file's path.
    public let path: String

    /// Opens (creating if needed) the database file at `path`.
    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        // Wait for a lock another connection holds for a moment instead of failing at once.
        configuration.busyMode = .timeout(10)
        configuration.label = "presencetop.server"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try SQLiteStore.migrator.migrate(queue)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE log (
                        seq INTEGER PRIMARY KEY,
                        path TEXT NOT NULL,
                        kind INTEGER NOT NULL,
                        data TEXT NOT NULL
                    );
                    CREATE TABLE snapshot (
                        key TEXT PRIMARY KEY,
                        data TEXT NOT NULL
                    );
                    CREATE TABLE meta (
                        name TEXT PRIMARY KEY,
                        value INTEGER NOT NULL
                    );
                    INSERT INTO meta (name, value) VALUES ('checkpoint_seq', 0);
                    """)
        }
        migrator.registerMigration("v2: idempotency keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE applied_keys (
                        key TEXT PRIMARY KEY,
                        seq INTEGER NOT NULL
                    );
                    CREATE INDEX applied_keys_by_seq ON applied_keys (seq);
                    """)
        }
        migrator.registerMigration("v3: onDisconnect writes") { db in
            // One row per session with writes to run; rowid keeps the order sessions registered.
            try db.execute(
                sql: """
                    CREATE TABLE on_disconnect (
                        session TEXT PRIMARY KEY,
                        auth TEXT,
                        writes TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v4: idempotency keys in the log") { db in
            // A write's key goes into its log row (one insert a write, not two); the log's keys
            // move to `applied_keys` when a checkpoint truncates the log. That table is only
            // read at start, newest first: keyed by sequence, so a move appends.
            try db.execute(
                sql: """
                    ALTER TABLE log ADD COLUMN key TEXT;
                    CREATE TABLE applied_keys_v4 (seq INTEGER PRIMARY KEY, key TEXT NOT NULL);
                    INSERT OR REPLACE INTO applied_keys_v4 (seq, key) SELECT seq, key FROM applied_keys ORDER BY seq;
                    DROP TABLE applied_keys;
                    ALTER TABLE applied_keys_v4 RENAME TO applied_keys;
                    """)
        }
        return migrator
    }

    /// The snapshot row that holds a root that is a leaf, and the one holding the root's priority.
    private static let rootLeafKey = ""
    private static let rootPriorityKey = ".priority"

    /// Reads the snapshot and replays the log after it.
    public func load() async throws -> (root: Node, sequence: UInt64) {
        try await queue.read { db in
            var root = Node.empty
            var entries: [(key: ChildKey, node: Node)] = []
            var priority: Priority?
            for row in try Row.fetchAll(db, sql: "SELECT key, data FROM snapshot") {
                let key: String = row["key"]
                let json = try JSONParser.parse(row["data"] as String)
                switch key {
                case SQLiteStore.rootLeafKey: root = try Node(json: json)
                case SQLiteStore.rootPriorityKey: priority = try Priority(json: json, at: .root)
                default: entries.append((ChildKey(key), try Node(json: json, at: Path(segments: [key]))))
                }
            }
            if root.isEmpty { root = Node(children: ChildrenMap(entries), priority: priority) }
            var sequence = try UInt64(
                Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE name = 'checkpoint_seq'") ?? 0)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT seq, path, kind, data FROM log WHERE seq > ? ORDER BY seq", arguments: [sequence])
            while let row = try rows.next() {
                let record = LogRecord(
                    sequence: UInt64(row["seq"] as Int64), path: Path(row["path"] as String),
                    kind: LogRecord.Kind(rawValue: row["kind"]) ?? .set, data: row["data"])
                root = try record.apply(to: root)
                sequence = record.sequence
            }
            return (root, sequence)
        }
    }

    /// Reads the newest idempotency keys, oldest first.
    public func loadAppliedKeys(limit: Int) async throws -> [(key: String, sequence: UInt64)] {
        try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT key, seq FROM (
                        SELECT key, seq FROM applied_keys
                        UNION ALL SELECT key, seq FROM log WHERE key IS NOT NULL
                        ORDER BY seq DESC LIMIT ?)
                    ORDER BY seq
                    """,
                arguments: [limit]
            ).map { (key: $0["key"] as String, sequence: UInt64($0["seq"] as Int64)) }
        }
    }

    /// Whether the file at `path` holds onDisconnect writes of sessions that have not ended (the
    /// server stopped first), without loading anything else.
    public static func holdsOnDisconnectWrites(path: String) throws -> Bool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try db.tableExists("on_disconnect")
                && Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM on_disconnect)") == true
        }
    }

    /// Reads the stored onDisconnect writes, in the order their sessions first stored some.
    public func loadOnDisconnect() async throws -> [OnDisconnectRecord] {
        try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT session, auth, writes FROM on_disconnect ORDER BY rowid").map {
                try OnDisconnectRecord(sessionID: $0["session"], authText: $0["auth"], writesText: $0["writes"])
            }
        }
    }

    /// Appends records and their idempotency keys, stores or removes sessions' onDisconnect
    /// writes, and writes a checkpoint, all in one transaction.
    public func append(_ records: [LogRecord], onDisconnect: [OnDisconnectRecord], checkpoint: Checkpoint?)
        async throws
    {
        try await queue.write { db in
            try SQLiteStore.saveOnDisconnect(onDisconnect, in: db)
            try SQLiteStore.insertLog(records, in: db)
            if let checkpoint {
                try SQLiteStore.write(checkpoint, in: db)
                try db.execute(
                    sql: """
                        DELETE FROM applied_keys WHERE seq <= (
                            SELECT seq FROM applied_keys ORDER BY seq DESC LIMIT 1 OFFSET ?)
                        """, arguments: [AppliedKeys.capacity])
            }
        }
    }

    /// Writes log rows, up to ``RawStatement/rowsPerStatement`` a statement, their values bound
    /// in place (a group commit holds thousands, and GRDB's arguments cost more than the rows).
    private static func insertLog(_ records: [LogRecord], in db: Database) throws {
        try RawStatement.forEachChunk(of: records, valuesPerRow: 1) { count, records in
            try RawStatement.execute(db, sql: insertLogSQL[count]) { bind in
                for record in records {
                    bind.int(Int64(record.sequence))
                    bind.text(record.path.relativeString)
                    bind.int(Int64(record.kind.rawValue))
                    bind.text(record.data)
                    bind.textOrNull(record.idempotencyKey)
                }
            }
        }
    }

    /// Stores or removes sessions' onDisconnect writes, in order, many sessions a statement.
    ///
    /// Each run of stores, and each run of removals, goes up to ``RawStatement/rowsPerStatement``
    /// sessions a statement (a mass disconnect removes thousands at once). Within a statement the
    /// rows apply in order, so a session stored twice keeps its last writes, as one statement a
    /// row would leave it.
    private static func saveOnDisconnect(_ records: [OnDisconnectRecord], in db: Database) throws {
        var start = 0
        while start < records.count {
            let removing = records[start].isRemoval
            var end = start + 1
            while end < records.count, records[end].isRemoval == removing { end += 1 }
            try RawStatement.forEachChunk(of: records[start..<end], valuesPerRow: 1) { count, records in
                let sql = removing ? removeOnDisconnectSQL[count] : storeOnDisconnectSQL[count]
                try RawStatement.execute(db, sql: sql) { bind in
                    for record in records {
                        bind.text(record.sessionID)
                        if removing { continue }
                        bind.textOrNull(record.authText)
                        bind.text(record.writesText)
                    }
                }
            }
            start = end
        }
    }

    /// The onDisconnect store's statements for each number of sessions.
    private static let storeOnDisconnectSQL = RawStatement.texts(columns: 3) { rows in
        """
        INSERT INTO on_disconnect (session, auth, writes) VALUES \(rows)
        ON CONFLICT (session) DO UPDATE SET auth = excluded.auth, writes = excluded.writes
        """
    }
    private static let removeOnDisconnectSQL = RawStatement.texts(columns: 1) { rows in
        "DELETE FROM on_disconnect WHERE session IN (VALUES \(rows))"
    }

    /// The log's insert for each number of rows.
    private static let insertLogSQL = RawStatement.texts(columns: 5) { rows in
        "INSERT INTO log (seq, path, kind, data, key) VALUES \(rows)"
    }

    private static func write(_ checkpoint: Checkpoint, in db: Database) throws {
        let root = checkpoint.root
        let upsert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO snapshot (key, data) VALUES (?, ?)")
        let delete = try db.cachedStatement(sql: "DELETE FROM snapshot WHERE key = ?")
        if root.isLeaf || checkpoint.dirtyKeys == nil {
            try db.execute(sql: "DELETE FROM snapshot")
        }
        if root.isLeaf {
            try upsert.execute(arguments: [rootLeafKey, root.exportJSON.jsonString])
        } else {
            try delete.execute(arguments: [rootLeafKey])
            if let dirty = checkpoint.dirtyKeys {
                for key in dirty {
                    let child = root.child(key.string)
                    if child.isEmpty {
                        try delete.execute(arguments: [key.string])
                    } else {
                        try upsert.execute(arguments: [key.string, child.exportJSON.jsonString])
                    }
                }
            } else {
                for (key, child) in root.children {
                    try upsert.execute(arguments: [key.string, child.exportJSON.jsonString])
                }
            }
            if let priority = root.priority {
                try upsert.execute(arguments: [rootPriorityKey, priority.json.jsonString])
            } else {
                try delete.execute(arguments: [rootPriorityKey])
            }
        }
        try db.execute(
            sql: "UPDATE meta SET value = ? WHERE name = 'checkpoint_seq'", arguments: [Int64(checkpoint.sequence)])
        // The truncated log's idempotency keys are kept apart.
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO applied_keys (seq, key) SELECT seq, key FROM log WHERE seq <= ? AND key IS NOT NULL",
            arguments: [Int64(checkpoint.sequence)])
        try db.execute(sql: "DELETE FROM log WHERE seq <= ?", arguments: [Int64(checkpoint.sequence)])
    }

    /// False: appends wait for the disk.
    public var isVolatile: Bool { false }

    /// Checkpoints the WAL and closes the file.
    public func close() async throws {
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try queue.close()
    }
}
