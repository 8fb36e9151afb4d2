/// Where things are in a TOML file, for messages: a table's header line, and a key's line.
///
/// TOMLKit's values carry no places (its parser gives them only for syntax errors). Themes, the
/// settings file and scenario files all name their lines with it.
public struct TOMLPlaces: Sendable {
    /// A table: `[name]`, or the `index`th `[[name]]` (from 0); nil names the top level.
    public struct Table: Hashable, Sendable {
        /// The table's name as its header writes it.
        public var name: String
        /// Which of the `[[name]]` tables it is.
        public var index: Int

        /// Names a table.
        public init(_ name: String, index: Int = 0) {
            self.name = name
            self.index = index
        }
    }

    /// Each line's text (from its first non-blank) and the table it is in (nil: the top level).
    private let lines: [(text: Substring, table: Table?)]
    private let headers: [Table: Int]

    /// Reads where the tables and keys of `text` are.
    public init(_ text: String) {
        var lines: [(text: Substring, table: Table?)] = []
        var headers: [Table: Int] = [:]
        var table: Table?
        var counts: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                let name = line.drop { $0 == "[" }.prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                let number = counts[name, default: 0]
                counts[name] = number + 1
                table = Table(name, index: number)
                if let table { headers[table] = index + 1 }
            }
            lines.append((line, table))
        }
        self.lines = lines
        self.headers = headers
    }

    /// The line of a table's header.
    public func header(_ table: Table) -> Int? { headers[table] }

    /// The first line of `table` (nil: the top level) that sets `key` (bare or quoted), else the
    /// table's header.
    public func line(of key: String, in table: Table? = nil) -> Int? {
        for (index, line) in lines.enumerated() where line.table == table && !line.text.hasPrefix("[") {
            let name = line.text.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces)
            if name == key || name == "\"\(key)\"" || name == "'\(key)'" { return index + 1 }
        }
        return table.flatMap(header)
    }
}
