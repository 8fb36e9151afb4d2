import GRDB
import GRDBSQLite

/// A statement's parameters, bound in place through the SQLite C API, in order from the first.
///
/// GRDB's `StatementArguments` boxes each value as an existential and converts it to a
/// `DatabaseValue` before binding it: for rows saved by the thousand (a draining queue's
/// acknowledgements, a server's log) that costs more instructions than SQLite's own work.
public struct RawBindings {
    private let statement: SQLiteStatement
    /// The next parameter's position.
    private(set) var index: Int32 = 1
    /// The first binding SQLite refused (a text over its length limit), reported by the run.
    private(set) var failure: Int32?
    /// The bound texts' bytes, which SQLite reads in place until the run is over.
    var arena = TextArena()
    /// The longest text the connection takes (`SQLITE_LIMIT_LENGTH`): a longer one is refused
    /// before it is copied.
    private let lengthLimit: Int

    init(statement: SQLiteStatement) {
        self.statement = statement
        lengthLimit = Int(sqlite3_limit(sqlite3_db_handle(statement), SQLITE_LIMIT_LENGTH, -1))
    }

    /// Binds `text`: its bytes copied into the bindings' arena, which outlives the run (SQLite's
    /// own copy, `SQLITE_TRANSIENT`, is an allocation under its memory mutex for each text).
    public mutating func text(_ text: String) {
        var text = text
        let code = text.withUTF8 { bytes -> Int32 in
            guard bytes.count <= lengthLimit, let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            guard let copy = arena.copy(bytes) else {
                return sqlite3_bind_text(statement, index, "", 0, Self.transient)
            }
            return sqlite3_bind_text(statement, index, copy, count, Self.static)
        }
        noted(code)
    }

    /// Binds `text`, or NULL for nil.
    public mutating func textOrNull(_ text: String?) {
        guard let text else { return noted(sqlite3_bind_null(statement, index)) }
        self.text(text)
    }

    /// Binds an integer.
    public mutating func int(_ value: Int64) {
        noted(sqlite3_bind_int64(statement, index, value))
    }

    /// Binds a boolean as GRDB stores one (0 or 1).
    public mutating func bool(_ value: Bool) { int(value ? 1 : 0) }

    private mutating func noted(_ code: Int32) {
        if code != SQLITE_OK, failure == nil { failure = code }
        index += 1
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bytes now.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    /// SQLite's `SQLITE_STATIC`: read the bytes in place; they stay until the bindings are cleared.
    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)
}
