import TOMLKit
import WatchModel

extension DashboardConfig {
    /// One `[[database]]` table: a database watched as part of one directory, its `url` and the
    /// sign-in and layout options that go with it (`credentials`, `layout`, …).
    public struct Database: Sendable, Equatable {
        /// Its options, `url` first, in the table's order.
        public var options: [Option]
    }

    /// Every `[[database]]` table as command-line arguments: `--url=…` and the options after it.
    public var databaseArguments: [String] {
        databases.flatMap { database in
            database.options.map { option in option.value.map { "--\(option.name)=\($0)" } ?? "--\(option.name)" }
        }
    }

    /// The `[[database]]` array's tables, each with a `url` and only `known` keys (string values).
    static func databases(
        _ value: any TOMLValueConvertible, known: Set<String>, file: String, places: TOMLPlaces
    ) throws(ConfigError) -> [Database] {
        guard let tables = value.array else {
            throw ConfigError(
                file: file, line: places.line(of: "database"), problem: "'database' must be tables ([[database]])")
        }
        var databases: [Database] = []
        for (index, element) in tables.enumerated() {
            let place = "[[database]] #\(index + 1)"
            let table = TOMLPlaces.Table("database", index: index)
            func line(_ key: String? = nil) -> Int? {
                key.flatMap { places.line(of: $0, in: table) } ?? places.header(table)
            }
            guard let entries = element.table else {
                throw ConfigError(file: file, line: line(), problem: "\(place) must be a table")
            }
            guard let url = entries["url"]?.string else {
                throw ConfigError(file: file, line: line("url"), problem: "\(place) needs a url (a string)")
            }
            var options = [Option(name: "url", value: url, line: line("url"))]
            for (name, entry) in entries where name != "url" {
                guard known.contains(name) else {
                    let names = (["url"] + known.sorted()).joined(separator: ", ")
                    throw ConfigError(
                        file: file, line: line(name), problem: "\(place): unknown key '\(name)' (keys: \(names))")
                }
                guard let text = entry.string else {
                    throw ConfigError(file: file, line: line(name), problem: "\(place): '\(name)' must be a string")
                }
                options.append(Option(name: name, value: text, line: line(name)))
            }
            databases.append(Database(options: options))
        }
        return databases
    }
}
