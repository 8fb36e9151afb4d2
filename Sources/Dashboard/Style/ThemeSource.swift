import Foundation

/// A theme file's lines, to say where a key is (the TOML parser gives positions only for syntax
/// errors).
struct ThemeSource {
    let lines: [Substring]

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The 1-based line where `key` is set, inside `[section]` (nil: at the top level).
    func line(of key: String, in section: String? = nil) -> Int? {
        var current: String?
        for (index, raw) in lines.enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                current = String(line.dropFirst().prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard current == section else { continue }
            let name = line.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces)
            if name == key || name == "\"\(key)\"" || name == "'\(key)'" { return index + 1 }
        }
        return nil
    }
}
