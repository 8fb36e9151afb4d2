import ArgumentParser
import RTDBCore

/// Keys and paths given on the command line, checked by the engine's own rules (``Validation``:
/// 1–768 UTF-8 bytes a key, none of `. $ # [ ] /`, no control characters, 32 levels at most), so
/// that an option takes exactly what a write would; the error names the option and the rule.
enum DatabaseOption {
    /// Throws the command line's error naming `option` unless `value` is a valid key.
    static func key(_ value: String, _ option: String) throws {
        do {
            try Validation.validateKey(value)
        } catch {
            throw ValidationError(printable("\(option) '\(value.prefix(80))' is not a valid key: \(error.description)"))
        }
    }

    /// Throws the command line's error naming `option` unless `value` is a valid path; with
    /// `writable`, a path under `.info` is refused too.
    static func path(_ value: String, _ option: String, writable: Bool = false) throws {
        do {
            try Validation.validatePathString(value)
            if writable { try Validation.validateWritablePath(Path(value)) }
        } catch {
            throw ValidationError(
                printable("\(option) '\(value.prefix(80))' is not a valid path: \(error.description)"))
        }
    }

    /// `message` with each control character written as the standard library escapes it
    /// (`\u{1B}`), so that a hostile value cannot move the terminal's cursor or change its colours.
    static func printable(_ message: String) -> String {
        message.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
    }
}
