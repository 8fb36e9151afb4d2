import Foundation
import GRDB
import GRDBSQLite
import RawSQLite
import Testing

/// Rows written in chunks through ``RawStatement`` read back from a real SQLite file as they were
/// bound, and a refused statement says why and leaves the next run unharmed.
@Suite struct RawStatementTests {
    /// A file in a fresh directory, with a table of an integer key and two texts.
    static func database() throws -> (DatabaseQueue, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raw-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("rows.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT)")
        }
        return (queue, directory)
    }

    static let insertSQL = RawStatement.texts(columns: 3) { "INSERT INTO rows (id, name, note) VALUES \($0)" }

    /// 150 rows (three statements' worth, the last one short): texts past the arena's block,
    /// non-ASCII, NULL notes and a text with a NUL byte inside, stored whole.
    @Test func chunksOfRowsReadBackAsBound() throws {
        let (queue, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows: [(id: Int64, name: String, note: String?)] = (0..<150).map { index in
            let name = index == 70 ? String(repeating: "long ", count: 8_000) : "n\(index)/é\(index % 3)"
            return (Int64(index), name, index % 4 == 0 ? nil : "note \(index)")
        }
        try queue.write { db in
            try RawStatement.forEachChunk(of: rows, valuesPerRow: 1) { count, chunk in
                try RawStatement.execute(db, sql: Self.insertSQL[count]) { bind in
                    for row in chunk {
                        bind.int(row.id)
                        bind.text(row.name)
                        bind.textOrNull(row.note)
                    }
                }
            }
            try RawStatement.execute(db, sql: Self.insertSQL[1]) { bind in
                bind.int(1_000)
                bind.text("a\u{0}b")
                bind.textOrNull(nil)
            }
        }
        let read = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, note FROM rows WHERE id < 1000 ORDER BY id").map {
                (id: $0["id"] as Int64, name: $0["name"] as String, note: $0["note"] as String?)
            }
        }
        #expect(read.count == rows.count)
        #expect(zip(read, rows).allSatisfy { $0.id == $1.id && $0.name == $1.name && $0.note == $1.note })
        let nulLength = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT length(CAST(name AS BLOB)) FROM rows WHERE id = 1000")
        }
        #expect(nulLength == 3)
    }

    /// A text longer than the connection takes is refused: the error names SQLite's reason, and
    /// nothing of the statement is kept.
    @Test func aTextPastTheLengthLimitIsRefused() throws {
        let (queue, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        try queue.write { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000)
            #expect {
                try RawStatement.execute(db, sql: Self.insertSQL[1]) { bind in
                    bind.int(1)
                    bind.text(String(repeating: "x", count: 2_000))
                    bind.textOrNull(nil)
                }
            } throws: { error in
                "\(error)".contains("too big")
            }
        }
        let count = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM rows") }
        #expect(count == 0)
    }

    /// A row whose key is taken: the error names the constraint, nothing of that statement is
    /// kept, and the same statement then runs with new parameters.
    @Test func aRefusedRunSaysWhyAndTheNextRunsClean() throws {
        let (queue, directory) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        try queue.write { db in
            try RawStatement.execute(db, sql: Self.insertSQL[1]) { bind in
                bind.int(1)
                bind.text("first")
                bind.textOrNull(nil)
            }
            #expect {
                try RawStatement.execute(db, sql: Self.insertSQL[2]) { bind in
                    bind.int(2)
                    bind.text("second")
                    bind.textOrNull(nil)
                    bind.int(1)
                    bind.text("again")
                    bind.textOrNull(nil)
                }
            } throws: { error in
                "\(error)".contains("UNIQUE constraint failed: rows.id")
            }
            try RawStatement.execute(db, sql: Self.insertSQL[2]) { bind in
                bind.int(3)
                bind.text("third")
                bind.textOrNull("kept")
                bind.int(4)
                bind.text("fourth")
                bind.textOrNull(nil)
            }
        }
        let names = try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM rows ORDER BY id") }
        #expect(names == ["first", "third", "fourth"])
    }
}
