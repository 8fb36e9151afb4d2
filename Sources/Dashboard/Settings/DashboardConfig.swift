import Foundation
import TOMLKit
import WatchModel

/// The dashboard's settings file, `$XDG_CONFIG_HOME/presencetop/config.toml` (or
/// `~/.config/presencetop/config.toml`): the theme (`T` remembers its choice there), defaults
/// for the dashboard's options, which the command line overrides, and keys moved.
///
/// ```toml
/// theme = "solarized-dark"
///
/// [options]
/// users = 12
/// link = "mobile"
/// memory = true
///
/// [keys]
/// n = "N"
/// ```
public struct DashboardConfig: Sendable, Equatable {
    /// The theme to start with.
    public var theme: String?
    /// The `[options]` table, in the file's order.
    public var options: [Option] = []
    /// The `[keys]` table: each key's action moved to another key (`n = "N"`), with its line.
    public var keyMoves: [KeyMove] = []
    /// The `[[database]]` tables: databases watched as one directory, in the file's order.
    public var databases: [Database] = []

    /// One entry of `[options]`.
    public struct Option: Sendable, Equatable {
        /// The option's name, without dashes.
        public var name: String
        /// Its value as text, or nil for a flag that is on.
        public var value: String?
        /// Where the file says so.
        public var line: Int?
    }

    /// The `[options]` table as command-line arguments (`--users=12`, `--memory`).
    ///
    /// In the file's order; the command line's own come after them and win. A value is joined to
    /// its name, so one that begins with `--` stays a value.
    public var arguments: [String] {
        options.map { option in option.value.map { "--\(option.name)=\($0)" } ?? "--\(option.name)" }
    }

    /// One entry of `[keys]`.
    public struct KeyMove: Sendable, Equatable {
        /// The key whose action moves.
        public var from: String
        /// The key it moves to.
        public var to: String
        /// Where the file says so.
        public var line: Int?
    }

    /// No settings.
    public init() {}

    /// The settings file at `file`, read once: nil when there is none.
    ///
    /// - Throws: ``ConfigError`` naming the file and, where there is one, the line: a folder or a
    ///   device where the file should be, text that is not UTF-8, TOML that does not parse, an
    ///   unknown option or a value of the wrong type.
    public static func load(
        _ file: URL, options: [String: Bool], databaseOptions: Set<String> = []
    ) throws(ConfigError) -> DashboardConfig? {
        let text: String
        do {
            text = try TextFile.text(at: file.path, limit: 1 << 20)
        } catch {
            if error.isMissing { return nil }
            throw ConfigError(file: file.path, line: error.line, problem: error.problem)
        }
        return try DashboardConfig(toml: text, file: file.path, options: options, databaseOptions: databaseOptions)
    }

    /// The line of the `[options]` entry a command-line message is about (`--users` in "--users
    /// must be between 0 and 500"), if the message names one of this file's options.
    public func option(namedIn message: String) -> Option? {
        options.first { option in
            guard let range = message.range(of: "--\(option.name)") else { return false }
            return message[range.upperBound...].first.map { !$0.isLetter && $0 != "-" } ?? true
        }
    }

    /// Where the file is.
    public static func location(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("presencetop/config.toml")
    }

    /// Reads a settings file's text.
    ///
    /// - Parameter options: The dashboard's option names (without dashes) and whether each is a
    ///   flag; any other name in `[options]` is refused by name.
    /// - Throws: ``ConfigError`` with the file, the line and the problem.
    ///   - databaseOptions: The names (without dashes) a `[[database]]` table may give besides
    ///     `url`; without any, such tables are refused.
    public init(
        toml text: String, file: String, options known: [String: Bool], databaseOptions: Set<String> = []
    ) throws(ConfigError) {
        let (table, places): (TOMLTable, TOMLPlaces)
        do {
            (table, places) = try TOMLText.table(text)
        } catch {
            throw ConfigError(file: file, line: error.line, problem: error.problem)
        }
        func line(of key: String, in table: String? = nil) -> Int? {
            places.line(of: key, in: table.map { TOMLPlaces.Table($0) })
        }
        for (key, value) in table {
            switch key {
            case "theme":
                guard let name = value.string else {
                    throw ConfigError(file: file, line: line(of: key), problem: "'theme' must be a string")
                }
                theme = name
            case "options":
                guard let entries = value.table else {
                    throw ConfigError(file: file, line: line(of: key), problem: "'options' must be a table")
                }
                for (name, option) in entries {
                    guard let isFlag = known[name] else {
                        let known = known.keys.sorted().joined(separator: ", ")
                        throw ConfigError(
                            file: file, line: line(of: name, in: key),
                            problem: "unknown option '\(name)' (options: \(known))")
                    }
                    if isFlag {
                        guard let on = option.bool else {
                            throw ConfigError(
                                file: file, line: line(of: name, in: key), problem: "'\(name)' must be true or false")
                        }
                        if on { self.options.append(Option(name: name, value: nil, line: line(of: name, in: key))) }
                    } else if let value = option.string ?? option.int.map({ String($0) })
                        ?? option.double.map({ "\($0)" })
                    {
                        self.options.append(Option(name: name, value: value, line: line(of: name, in: key)))
                    } else {
                        throw ConfigError(
                            file: file, line: line(of: name, in: key), problem: "'\(name)' must be a string or a number"
                        )
                    }
                }
            case "database" where !databaseOptions.isEmpty:
                databases = try Self.databases(value, known: databaseOptions, file: file, places: places)
            case "keys":
                guard let entries = value.table else {
                    throw ConfigError(file: file, line: line(of: key), problem: "'keys' must be a table")
                }
                for (from, target) in entries {
                    guard let to = target.string else {
                        throw ConfigError(
                            file: file, line: line(of: from, in: key),
                            problem: "'\(from)' must name a key, as \"N\" or \"Tab\"")
                    }
                    keyMoves.append(KeyMove(from: from, to: to, line: line(of: from, in: key)))
                }
            default:
                throw ConfigError(
                    file: file, line: line(of: key) ?? places.header(TOMLPlaces.Table(key)),
                    problem:
                        "unknown key '\(key)' (expected theme, an [options] table, a [keys] table"
                        + (databaseOptions.isEmpty ? ")" : " and [[database]] tables)"))
            }
        }
    }

    /// `text` (a settings file's, possibly empty) with its top-level `theme` set to `name`: the
    /// line replaced where there is one, else added at the top; the rest kept as written.
    public static func settingTheme(_ name: String, in text: String) -> String {
        let entry =
            "theme = \"\(name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { break }  // past the top-level keys
            if trimmed.hasPrefix("theme"), trimmed.dropFirst(5).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                lines[index] = entry
                return lines.joined(separator: "\n")
            }
        }
        return ([entry] + lines).joined(separator: "\n") + (text.isEmpty ? "\n" : "")
    }
}

/// A settings file that could not be used: where and why.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line, when known.
    public var line: Int?
    /// What is wrong.
    public var problem: String

    /// Makes an error.
    public init(file: String, line: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `file:line: problem`.
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(problem)" }
}

extension DashboardConfig {
    /// The key bindings with this file's `[keys]` moves made.
    ///
    /// - Throws: ``ConfigError`` naming the file, the line and the key.
    public func bindings(file: String) throws(ConfigError) -> [KeyBinding] {
        do {
            return try KeyMap.bindings(remapping: keyMoves.map { ($0.from, $0.to) })
        } catch {
            let line = error.index.flatMap { keyMoves.indices.contains($0) ? keyMoves[$0].line : nil }
            throw ConfigError(file: file, line: line, problem: error.description)
        }
    }
}
