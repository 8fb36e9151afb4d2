import Foundation

/// Reads Swift sources for the size of their types: each struct, class or actor (nested ones
/// too) with the stored properties of its body, and the lines of its bodies and of the
/// extensions of its name.
///
/// A line scanner, not a parser: comments and the insides of string literals are blanked before
/// braces are counted; a property is stored unless a type and `{` follow its name with no `=`
/// (computed), or it is `static`.
struct TypeSizeScanner {
    /// One type as read.
    struct TypeSize {
        var name: String
        var file: String
        /// Its stored properties, by name.
        var stored: [String] = []
        /// The type of a `Mutex(State())` or `Mutex<State>` it holds, if any.
        var mutexState: String?
        /// Lines inside its body and its extensions' bodies.
        var lines = 0
        /// Whether every stored property is a `let`.
        var isImmutable = true
        /// Whether it is a struct (a value).
        var isValue = false
    }

    private(set) var types: [TypeSize] = []
    private var extensionLines: [String: Int] = [:]

    /// Reads one file's text.
    mutating func read(_ text: String, file: String) {
        var depth = 0
        var open: [(index: Int, depth: Int)] = []
        var openExtension: (name: String, depth: Int)?
        var inMultilineString = false
        // A property whose line ends in `{`: stored if the next line observes it (`didSet`).
        var observed: (index: Int, name: String)?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let (code, stillInString) = Self.blanked(String(raw), inMultilineString: inMultilineString)
            inMultilineString = stillInString
            if let (index, name) = observed {
                let first = code.trimmingCharacters(in: .whitespaces)
                if first.hasPrefix("didSet") || first.hasPrefix("willSet") {
                    types[index].stored.append(name)
                    types[index].isImmutable = false
                }
                observed = nil
            }
            if let current = open.last, depth == current.depth,
                let name = Self.noteProperty(code, in: &types[current.index])
            {
                observed = (current.index, name)
            }
            if depth == 0, let name = Self.declared(code, keyword: "extension") {
                openExtension = (name, depth + 1)
            } else if let name = Self.declared(code, keyword: nil), code.contains("{") {
                var type = TypeSize(name: name, file: file)
                type.isValue = code.contains("struct ")
                types.append(type)
                open.append((types.count - 1, depth + 1))
                depth += Self.braces(in: code)
                while let current = open.last, depth < current.depth { open.removeLast() }
                continue
            }
            for entry in open { types[entry.index].lines += 1 }
            if let ext = openExtension { extensionLines[ext.name, default: 0] += 1 }
            depth += Self.braces(in: code)
            while let current = open.last, depth < current.depth { open.removeLast() }
            if let ext = openExtension, depth < ext.depth { openExtension = nil }
        }
    }

    /// The sizes, each type's extension lines added to its own and its `Mutex`'s `State` named.
    var sizes: [TypeSize] {
        types.map { type in
            var type = type
            type.lines += extensionLines[type.name] ?? 0
            return type
        }
    }

    private static func declared(_ code: String, keyword: String?) -> String? {
        let kinds = keyword.map { [$0] } ?? ["struct", "class", "actor"]
        let words = code.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" })
        for (index, word) in words.enumerated() where kinds.contains(String(word)) {
            let before = words[..<index].map(String.init)
            let modifiers: Set<String> = [
                "public", "internal", "private", "fileprivate", "final", "nonisolated", "package", "open",
            ]
            guard before.allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }), index + 1 < words.count else {
                return nil
            }
            let name = String(words[index + 1])
            // `class func`, `class var`: members, not types.
            return ["func", "var", "let", "subscript", "init"].contains(name) ? nil : name
        }
        return nil
    }

    /// Notes a stored property the line declares; returns the name of one that may be observed
    /// on the next line (its line ends in `{`).
    private static func noteProperty(_ code: String, in type: inout TypeSize) -> String? {
        let trimmed = code.trimmingCharacters(in: .whitespaces)
        var words = trimmed.split(separator: " ").map(String.init)
        while let first = words.first, first != "let", first != "var" {
            if first == "static" || first == "class" || first == "func" || first == "case" { return nil }
            guard
                first.hasPrefix("@") || first.hasPrefix("private") || first.hasPrefix("nonisolated")
                    || ["public", "internal", "fileprivate", "lazy", "weak", "unowned", "final", "package"].contains(
                        first)
            else { return nil }
            words.removeFirst()
        }
        guard let keyword = words.first, words.count > 1 else { return nil }
        let rest = words.dropFirst().joined(separator: " ")
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let afterName = rest.dropFirst(name.count)
        if let brace = afterName.firstIndex(of: "{"), !afterName[..<brace].contains("="),
            !afterName[brace...].contains("didSet"), !afterName[brace...].contains("willSet")
        {
            // Computed, unless the next line observes it.
            return afterName.hasSuffix("{") ? name : nil
        }
        type.stored.append(name)
        if keyword == "var" { type.isImmutable = false }
        if afterName.contains("Mutex(State(") || afterName.contains("Mutex<State>") { type.mutexState = "State" }
        return nil
    }

    /// The line with comments and the insides of string literals blanked.
    private static func blanked(_ line: String, inMultilineString: Bool) -> (String, Bool) {
        if inMultilineString {
            guard let end = line.range(of: "\"\"\"") else { return ("", true) }
            return (String(line[end.upperBound...]), false)
        }
        if let start = line.range(of: "\"\"\"") {
            let after = line[start.upperBound...]
            return (String(line[..<start.lowerBound]), !after.contains("\"\"\""))
        }
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    out.append(character)
                }
            } else if character == "\"" {
                inString = true
                out.append(character)
            } else if character == "/", previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(character)
            }
            previous = character
        }
        return (out, false)
    }

    private static func braces(in code: String) -> Int {
        code.reduce(0) { $0 + ($1 == "{" ? 1 : $1 == "}" ? -1 : 0) }
    }
}
