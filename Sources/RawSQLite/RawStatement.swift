import GRDB
import GRDBSQLite

/// Writes of many rows in few statements, their parameters bound in place (``RawBindings``), in a
/// GRDB transaction: a statement's run costs SQLite about as much as a row, so a batch of rows
/// goes as up to ``rowsPerStatement`` rows a statement.
public enum RawStatement {
    /// At most this many rows go in one statement.
    public static let rowsPerStatement = 64

    /// Runs `sql` once (a write: no rows are read), with the parameters `bind` binds, which must be
    /// every one of them.
    public static func execute(_ db: Database, sql: String, bind: (inout RawBindings) -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        var bindings = RawBindings(statement: raw)
        defer {
            // The texts are bound in place: the statement lets go of them before they are freed.
            sqlite3_clear_bindings(raw)
            bindings.arena.free()
        }
        bind(&bindings)
        assert(bindings.index - 1 == sqlite3_bind_parameter_count(raw), "every parameter bound once: \(sql)")
        let code = bindings.failure ?? sqlite3_step(raw)
        // The message is read before the reset, which starts the statement's next run; a binding
        // refused before the run has only its code's text.
        let message: String? =
            if code == SQLITE_DONE || code == SQLITE_ROW {
                nil
            } else if bindings.failure != nil {
                String(cString: sqlite3_errstr(code))
            } else {
                String(cString: sqlite3_errmsg(db.sqliteConnection))
            }
        sqlite3_reset(raw)
        if let message { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql) }
    }

    /// Calls `body` with up to ``rowsPerStatement`` rows at a time of `values`, `valuesPerRow`
    /// each, and how many rows that is.
    public static func forEachChunk<Value>(
        of values: ArraySlice<Value>, valuesPerRow: Int,
        _ body: (_ rows: Int, _ values: ArraySlice<Value>) throws -> Void
    ) rethrows {
        let chunk = rowsPerStatement * valuesPerRow
        var start = values.startIndex
        while start < values.endIndex {
            let end = min(start + chunk, values.endIndex)
            try body((end - start) / valuesPerRow, values[start..<end])
            start = end
        }
    }

    /// ``forEachChunk(of:valuesPerRow:_:)`` over a whole array.
    public static func forEachChunk<Value>(
        of values: [Value], valuesPerRow: Int, _ body: (_ rows: Int, _ values: ArraySlice<Value>) throws -> Void
    ) rethrows {
        try forEachChunk(of: values[...], valuesPerRow: valuesPerRow, body)
    }

    /// A statement's text for each number of rows from none to ``rowsPerStatement``, made once
    /// (the text is also the key of GRDB's statement cache, hashed on each use); `text` makes one
    /// from its rows' placeholders, `(?, ?), (?, ?)` for two rows of two columns.
    public static func texts(columns: Int, _ text: (_ placeholders: String) -> String) -> [String] {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return (0...rowsPerStatement).map { text(Array(repeating: row, count: $0).joined(separator: ", ")) }
    }
}
