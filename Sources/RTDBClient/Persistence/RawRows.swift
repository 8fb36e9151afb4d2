import GRDB
import GRDBSQLite

/// The current row of a statement, read in place through the SQLite C API.
///
/// A restart reads tens of thousands of rows, and decoding each through GRDB's `Row` costs as much
/// as SQLite's own work; the rows read this way are only the cache and queue at start-up.
struct RawRow {
    let statement: SQLiteStatement

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// The column's text bytes, valid until the next step.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = sqlite3_column_text(statement, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func string(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

    func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
}

extension ClientStore {
    /// Runs `body` for each row of a query, in order.
    static func forEachRow(
        _ db: GRDB.Database, sql: String, arguments: StatementArguments = [], _ body: (RawRow) throws -> Void
    ) throws {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw GRDB.DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                    sql: sql)
            }
            try body(RawRow(statement: raw))
        }
    }
}
