/// A token of a rule expression.
struct RuleToken {
    enum Kind: Equatable {
        case number(Double)
        case string(String)
        case identifier(String)
        case symbol(String)
        case regex(source: String, flags: String)
        case end
    }

    var kind: Kind
    var location: SourceLocation
}

/// Splits a rule expression into tokens, one at a time, as the parser asks.
///
/// The parser says whether an operand may come next: there `/` opens a regular expression
/// literal, elsewhere it divides.
struct RuleLexer {
    private let characters: [Character]
    private let locations: [SourceLocation]
    private let fallback: SourceLocation
    private(set) var index = 0

    /// - Parameter locations: The place in the file of each character of `text`.
    init(_ text: String, locations: [SourceLocation], start: SourceLocation) {
        characters = Array(text)
        self.locations = locations
        fallback = start
    }

    /// Where the character at `position` is in the file.
    func location(at position: Int) -> SourceLocation {
        if position < locations.count { return locations[position] }
        guard let last = locations.last else { return fallback }
        let past = 1 + position - locations.count
        return SourceLocation(
            line: last.line, column: last.column + past, offset: last.offset < 0 ? -1 : last.offset + past)
    }

    private static let symbols = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||"]

    /// Reads the next token.
    mutating func next(operandExpected: Bool) throws(LocatedProblem) -> RuleToken {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        let start = index
        let location = location(at: start)
        guard index < characters.count else { return RuleToken(kind: .end, location: location) }
        let character = characters[index]
        if character.isNumber || (character == "." && index + 1 < characters.count && characters[index + 1].isNumber) {
            var text = ""
            while index < characters.count, characters[index].isNumber || characters[index] == "." {
                text.append(characters[index])
                index += 1
            }
            guard let value = Double(text) else {
                throw LocatedProblem(location: location, message: "invalid number '\(text)'")
            }
            return RuleToken(kind: .number(value), location: location)
        }
        if character.isLetter || character == "_" || character == "$" {
            var name = ""
            while index < characters.count,
                characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                    || characters[index] == "$"
            {
                name.append(characters[index])
                index += 1
            }
            return RuleToken(kind: .identifier(name), location: location)
        }
        if character == "'" || character == "\"" {
            return RuleToken(kind: .string(try string(quote: character)), location: location)
        }
        if character == "/" && operandExpected { return try regex(location: location) }
        for symbol in Self.symbols where matches(symbol) {
            index += symbol.count
            return RuleToken(kind: .symbol(symbol), location: location)
        }
        guard "!<>+-*/%?:.,()[]".contains(character) else {
            throw LocatedProblem(location: location, message: "unexpected character '\(character)'")
        }
        index += 1
        return RuleToken(kind: .symbol(String(character)), location: location)
    }

    private func matches(_ symbol: String) -> Bool {
        var position = index
        for expected in symbol {
            guard position < characters.count, characters[position] == expected else { return false }
            position += 1
        }
        return true
    }

    private mutating func string(quote: Character) throws(LocatedProblem) -> String {
        let start = location(at: index)
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote { return text }
            if character == "\\", index < characters.count {
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: text.append(escaped)
                }
            } else {
                text.append(character)
            }
        }
        throw LocatedProblem(location: start, message: "unterminated string")
    }

    private mutating func regex(location: SourceLocation) throws(LocatedProblem) -> RuleToken {
        index += 1
        var source = ""
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "\\", index < characters.count {
                source.append(character)
                source.append(characters[index])
                index += 1
                continue
            }
            if character == "[" { inClass = true }
            if character == "]" { inClass = false }
            if character == "/" && !inClass {
                var flags = ""
                while index < characters.count, characters[index].isLetter {
                    flags.append(characters[index])
                    index += 1
                }
                return RuleToken(kind: .regex(source: source, flags: flags), location: location)
            }
            source.append(character)
        }
        throw LocatedProblem(location: location, message: "unterminated regular expression")
    }
}
