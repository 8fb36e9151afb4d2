/// Reads a rules file: JSON, with `//` and `/* */` comments allowed as the Firebase console
/// allows them, keeping the place of everything it reads.
///
/// Written here rather than taken from a JSON library: the checks after it need the line and
/// column of each key and of each character inside an expression string, which no parser in the
/// package mirror reports.
struct RulesSourceReader {
    private let characters: [Character]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) {
        characters = Array(text)
    }

    /// Reads the whole text as one value.
    static func read(_ text: String) throws(LocatedProblem) -> RulesSourceValue {
        var reader = RulesSourceReader(text)
        let value = try reader.value(depth: 0)
        try reader.skipBlanks()
        if let extra = reader.peek {
            throw LocatedProblem(location: reader.here, message: "unexpected '\(extra)' after the end of the rules")
        }
        return value
    }

    private var here: SourceLocation { SourceLocation(line: line, column: column, offset: index) }
    private var peek: Character? { index < characters.count ? characters[index] : nil }

    private mutating func advance() {
        if characters[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func skipBlanks() throws(LocatedProblem) {
        while let character = peek {
            if character.isWhitespace {
                advance()
            } else if character == "/" && index + 1 < characters.count && characters[index + 1] == "/" {
                while let next = peek, next != "\n" { advance() }
            } else if character == "/" && index + 1 < characters.count && characters[index + 1] == "*" {
                let start = here
                advance()
                advance()
                while true {
                    guard let next = peek else {
                        throw LocatedProblem(location: start, message: "unterminated comment")
                    }
                    if next == "*" && index + 1 < characters.count && characters[index + 1] == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func expect(_ character: Character) throws(LocatedProblem) {
        try skipBlanks()
        guard peek == character else {
            let found = peek.map { "'\($0)'" } ?? "the end of the file"
            throw LocatedProblem(location: here, message: "expected '\(character)', found \(found)")
        }
        advance()
    }

    private mutating func value(depth: Int) throws(LocatedProblem) -> RulesSourceValue {
        try skipBlanks()
        let start = here
        guard depth < 200 else { throw LocatedProblem(location: start, message: "the rules are nested too deeply") }
        guard let character = peek else { throw LocatedProblem(location: start, message: "expected a value") }
        switch character {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"":
            let (text, locations) = try string()
            return .string(text, characters: locations, start)
        default:
            var word = ""
            while let next = peek, next.isLetter || next.isNumber || "+-.".contains(next) {
                word.append(next)
                advance()
            }
            switch word {
            case "true": return .bool(true, start)
            case "false": return .bool(false, start)
            case "null": return .null(start)
            case _ where !word.isEmpty && Double(word) != nil: return .number(word, start)
            default:
                throw LocatedProblem(
                    location: start, message: "unexpected '\(word.isEmpty ? String(character) : word)'")
            }
        }
    }

    private mutating func object(depth: Int) throws(LocatedProblem) -> RulesSourceValue {
        let start = here
        advance()
        var members: [(key: String, location: SourceLocation, value: RulesSourceValue)] = []
        try skipBlanks()
        if peek == "}" {
            advance()
            return .object(members, start)
        }
        while true {
            try skipBlanks()
            let keyLocation = here
            guard peek == "\"" else { throw LocatedProblem(location: here, message: "expected a quoted key") }
            let (key, _) = try string()
            if members.contains(where: { $0.key == key }) {
                throw LocatedProblem(location: keyLocation, message: "the key '\(key)' appears twice")
            }
            try expect(":")
            members.append((key, keyLocation, try value(depth: depth + 1)))
            try skipBlanks()
            if peek == "," {
                advance()
                try skipBlanks()
                // A trailing comma, as the console allows.
                if peek == "}" {
                    advance()
                    return .object(members, start)
                }
                continue
            }
            try expect("}")
            return .object(members, start)
        }
    }

    private mutating func array(depth: Int) throws(LocatedProblem) -> RulesSourceValue {
        let start = here
        advance()
        var elements: [RulesSourceValue] = []
        try skipBlanks()
        if peek == "]" {
            advance()
            return .array(elements, start)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            try skipBlanks()
            if peek == "," {
                advance()
                continue
            }
            try expect("]")
            return .array(elements, start)
        }
    }

    private mutating func string() throws(LocatedProblem) -> (String, [SourceLocation]) {
        let start = here
        advance()
        var text = ""
        var locations: [SourceLocation] = []
        while true {
            guard let character = peek, character != "\n" else {
                throw LocatedProblem(location: start, message: "unterminated string")
            }
            let location = here
            advance()
            if character == "\"" { return (text, locations) }
            if character == "\\" {
                guard let escaped = peek else { throw LocatedProblem(location: start, message: "unterminated string") }
                advance()
                switch escaped {
                case "\"", "\\", "/": text.append(escaped)
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "u":
                    var hex = ""
                    for _ in 0..<4 {
                        guard let digit = peek, digit.isHexDigit else {
                            throw LocatedProblem(location: location, message: "invalid \\u escape")
                        }
                        hex.append(digit)
                        advance()
                    }
                    text.append(Character(Unicode.Scalar(UInt32(hex, radix: 16)!) ?? "\u{FFFD}"))
                default:
                    throw LocatedProblem(location: location, message: "invalid escape '\\\(escaped)'")
                }
            } else {
                text.append(character)
            }
            locations.append(location)
        }
    }
}
