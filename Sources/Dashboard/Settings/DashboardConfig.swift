import Foundation
import PresenceLab
import TOMLKit

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
    /// The `[options]` table as command-line arguments (`--users 12`, `--memory`), in the file's
    /// order; the command line's own come after them and win.
    public var arguments: [String] = []
    /// The `[keys]` table: each key's action moved to another key (`n = "N"`), with its line.
    public var keyMoves: [KeyMove] = []

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
    public init(toml text: String, file: String, options: [String: Bool]) throws(ConfigError) {
        let table: TOMLTable
        do {
            table = try TOMLText.table(text)
        } catch {
            throw ConfigError(file: file, line: error.line, problem: error.problem)
        }
        let places = TOMLPlaces(text)
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
                    guard let isFlag = options[name] else {
                        let known = options.keys.sorted().joined(separator: ", ")
                        throw ConfigError(
                            file: file, line: line(of: name, in: key),
                            problem: "unknown option '\(name)' (options: \(known))")
                    }
                    if isFlag {
                        guard let on = option.bool else {
                            throw ConfigError(
                                file: file, line: line(of: name, in: key), problem: "'\(name)' must be true or false")
                        }
                        if on { arguments.append("--\(name)") }
                    } else if let text = option.string {
                        arguments += ["--\(name)", text]
                    } else if let number = option.int {
                        arguments += ["--\(name)", String(number)]
                    } else if let number = option.double {
                        arguments += ["--\(name)", String(number)]
                    } else {
                        throw ConfigError(
                            file: file, line: line(of: name, in: key), problem: "'\(name)' must be a string or a number"
                        )
                    }
                }
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
                    file: file, line: line(of: key),
                    problem: "unknown key '\(key)' (expected theme, an [options] table and a [keys] table)")
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
        var done: [(from: String, to: String)] = []
        var bindings = KeyMap.bindings
        for move in keyMoves {
            done.append((move.from, move.to))
            do {
                bindings = try KeyMap.bindings(remapping: done)
            } catch {
                throw ConfigError(file: file, line: move.line, problem: error.description)
            }
        }
        return bindings
    }
}
