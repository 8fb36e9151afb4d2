/// Where things are in a TOML file, for messages: the line of a table's header, and of a key
/// within a table (TOMLKit's values do not carry their places).
struct TOMLPlaces {
    /// A part of the file: the top level, `[population]`, or the nth `[[step]]` or `[[expect]]`.
    enum Section: Hashable {
        case population
        case step(Int)
        case expect(Int)
    }

    /// Each line's text (trimmed) and the section it is in (nil: the top level).
    private var lines: [(text: Substring, section: Section?)] = []
    private var headers: [Section: Int] = [:]

    init(_ text: String) {
        var section: Section?
        var counts: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                let name = line.drop { $0 == "[" }.prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                let number = counts[name, default: 0]
                counts[name] = number + 1
                switch name {
                case "population": section = .population
                case "step": section = .step(number)
                case "expect": section = .expect(number)
                default: section = nil
                }
                if let section { headers[section] = index + 1 }
            }
            lines.append((line, section))
        }
    }

    /// The line of `section`'s header.
    func header(_ section: Section) -> Int? { headers[section] }

    /// The first line in `section` (nil: the top level) that sets `key`, else the section's header.
    func line(of key: String, in section: Section?) -> Int? {
        for (index, line) in lines.enumerated() where line.section == section && line.text.hasPrefix(key) {
            let rest = line.text.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("=") { return index + 1 }
        }
        return section.flatMap(header)
    }
}
