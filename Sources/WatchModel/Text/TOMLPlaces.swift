/// Where things are in a TOML file, for messages: a table's header line, and a key's line.
///
/// TOMLKit's values carry no places (its parser gives them only for syntax errors). Themes, the
/// settings file and scenario files all name their lines with it. Built in one pass
/// (``TOMLScan``); each look-up is a dictionary's.
public struct TOMLPlaces: Sendable {
    /// A table: `[name]`, or the `index`th `[[name]]` (from 0); nil names the top level.
    public struct Table: Hashable, Sendable {
        /// The table's name as its header writes it, without quotes.
        public var name: String
        /// Which of the `[[name]]` tables it is.
        public var index: Int

        /// Names a table.
        public init(_ name: String, index: Int = 0) {
            self.name = name
            self.index = index
        }
    }

    private let headers: [Table: Int]
    /// Per table (nil: the top level), each key's first line.
    private let keys: [Table?: [String: Int]]

    /// Where the tables and keys are, as a walk over the text found them (``TOMLText/table(_:)``
    /// makes one).
    init(_ scan: TOMLScan) {
        var headers: [Table: Int] = [:]
        for (table, line) in scan.headers where headers[table] == nil { headers[table] = line }
        var keys: [Table?: [String: Int]] = [:]
        for key in scan.keys where keys[key.table]?[key.name] == nil {
            keys[key.table, default: [:]][key.name] = key.line
        }
        self.headers = headers
        self.keys = keys
    }

    /// The line of a table's header.
    public func header(_ table: Table) -> Int? { headers[table] }

    /// The first line of `table` (nil: the top level) that sets `key` (bare or quoted), else the
    /// table's header.
    public func line(of key: String, in table: Table? = nil) -> Int? {
        keys[table]?[key] ?? table.flatMap(header)
    }
}
