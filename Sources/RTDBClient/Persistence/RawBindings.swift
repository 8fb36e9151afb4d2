import GRDB
import GRDBSQLite

/// A statement's parameters, bound in place through the SQLite C API, in order from the first.
///
/// GRDB's `StatementArguments` boxes each value as an existential and converts it to a
/// `DatabaseValue` before binding it: for the rows an acknowledgement saves (a draining queue
/// saves thousands a second) that cost more instructions than SQLite's own work.
struct RawBindings {
    fileprivate let statement: SQLiteStatement
    fileprivate var index: Int32 = 1
    /// The first binding SQLite refused (a text over its length limit), reported by the run.
    fileprivate var failure: Int32?
    /// The bound texts' bytes, which SQLite reads in place until the run is over.
    fileprivate var arena = TextArena()

    /// Binds `text`: its bytes copied into the bindings' arena, which outlives the run (SQLite's
    /// own copy, `SQLITE_TRANSIENT`, is an allocation under its memory mutex for each text).
    mutating func text(_ text: String) {
        var text = text
        let code = text.withUTF8 { bytes -> Int32 in
            guard let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            guard let copy = arena.copy(bytes) else {
                return sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
            return sqlite3_bind_text(statement, index, copy, count, Self.static)
        }
        noted(code)
    }

    /// Binds an integer.
    mutating func int(_ value: Int64) {
        noted(sqlite3_bind_int64(statement, index, value))
    }

    private mutating func noted(_ code: Int32) {
        if code != SQLITE_OK, failure == nil { failure = code }
        index += 1
    }

    /// Binds a boolean as GRDB stores one (0 or 1).
    mutating func bool(_ value: Bool) { int(value ? 1 : 0) }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bytes now.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// SQLite's `SQLITE_STATIC`: read the bytes in place; they stay until the bindings are cleared.
    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)
}

extension ClientStore {
    /// Runs `sql` once (a write: no rows are read), with the parameters `bind` binds.
    static func execute(_ db: GRDB.Database, sql: String, bind: (inout RawBindings) -> Void) throws {
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
        if let message { throw GRDB.DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql) }
    }
}
