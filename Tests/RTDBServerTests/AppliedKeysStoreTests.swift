import Foundation
import GRDB
import RTDBCore
import RTDBServer
import RTDBTestSupport
import Testing

/// Idempotency keys on a real SQLite file: in the log rows until a checkpoint truncates the log,
/// then apart; and a file written before keys went into the log keeps its keys.
@Suite struct AppliedKeysStoreTests {
    @Test func keysAreReadFromTheLogAndAfterACheckpointTruncatesIt() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("keys.sqlite").path
        let store = try SQLiteStore(path: path)
        func record(_ sequence: UInt64, _ key: String?) -> LogRecord {
            LogRecord(
                sequence: sequence, path: Path("q/\(sequence)"), kind: .set, data: "\(sequence)", idempotencyKey: key)
        }
        try await store.append([record(1, "a:1"), record(2, nil), record(3, "a:3")], checkpoint: nil)
        #expect(try await Self.keys(store) == ["a:1@1", "a:3@3"], "read from the log")
        var root = Node.empty
        for sequence in 1...4 { root = try record(UInt64(sequence), nil).apply(to: root) }
        try await store.append([record(4, "b:4")], checkpoint: Checkpoint(root: root, sequence: 4, dirtyKeys: nil))
        try await store.append([record(5, "b:5")], checkpoint: nil)
        #expect(
            try await Self.keys(store) == ["a:1@1", "a:3@3", "b:4@4", "b:5@5"], "kept apart when the log is truncated")
        #expect(try await store.loadAppliedKeys(limit: 2).map(\.key) == ["b:4", "b:5"], "the newest, oldest first")
        try await store.close()
        let rows = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM log")
        }
        #expect(rows == 1, "the log holds what came after the checkpoint")
        let reopened = try SQLiteStore(path: path)
        #expect(try await Self.keys(reopened) == ["a:1@1", "a:3@3", "b:4@4", "b:5@5"])
        #expect(try await reopened.load().sequence == 5)
        try await reopened.close()
    }

    /// A file whose keys are in their own table keyed by key (before keys went into the log) is
    /// migrated: its keys and its log are still there, and new keys come after them.
    @Test func aFileFromBeforeKeysWentIntoTheLogKeepsItsKeys() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2: idempotency keys'), ('v3: onDisconnect writes');
                    CREATE TABLE log (seq INTEGER PRIMARY KEY, path TEXT NOT NULL, kind INTEGER NOT NULL, data TEXT NOT NULL);
                    CREATE TABLE snapshot (key TEXT PRIMARY KEY, data TEXT NOT NULL);
                    CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                    INSERT INTO meta (name, value) VALUES ('checkpoint_seq', 0);
                    CREATE TABLE applied_keys (key TEXT PRIMARY KEY, seq INTEGER NOT NULL);
                    CREATE INDEX applied_keys_by_seq ON applied_keys (seq);
                    CREATE TABLE on_disconnect (session TEXT PRIMARY KEY, auth TEXT, writes TEXT NOT NULL);
                    INSERT INTO log VALUES (1, 'a', 0, '1'), (2, 'b', 0, '2');
                    INSERT INTO applied_keys VALUES ('old:2', 2), ('old:1', 1);
                    """)
        }
        let store = try SQLiteStore(path: path)
        #expect(try await Self.keys(store) == ["old:1@1", "old:2@2"])
        try await store.append(
            [LogRecord(sequence: 3, path: Path("c"), kind: .set, data: "3", idempotencyKey: "new:3")], checkpoint: nil)
        #expect(try await Self.keys(store) == ["old:1@1", "old:2@2", "new:3@3"])
        #expect(try await store.load().root.plainJSON() == ["a": 1, "b": 2, "c": 3])
        try await store.close()
    }

    private static func keys(_ store: SQLiteStore) async throws -> [String] {
        try await store.loadAppliedKeys(limit: 100).map { "\($0.key)@\($0.sequence)" }
    }
}
