/// One walk over TOML text, before TOMLKit sees it: where its tables and keys are (for messages),
/// and the first input the vendored toml++ cannot take safely.
///
/// It follows strings, comments and the brackets of values, so a `[` inside a value is not a
/// header. Lines end at `\n` (a `\r` before it is a blank), so CRLF files count lines as LF ones.
/// `step = [{…}, {…}]` (an array of inline tables) gives each `{` the place of a `[[step]]`.
struct TOMLScan {
    /// A key and where it is set: its table (nil: the top level) and line.
    struct Key {
        var table: TOMLPlaces.Table?
        var name: String
        var line: Int
    }

    /// Segments a dotted key or a header may have.
    ///
    /// toml++ recurses once per segment (50,000 of them overflow its stack); no real file comes
    /// near this.
    static let maxKeyDepth = 64
    /// Arrays and inline tables one inside another.
    static let maxNesting = 64

    /// Each table's header (`[name]`, `[[name]]` or an inline table of an array) and its line.
    private(set) var headers: [(table: TOMLPlaces.Table, line: Int)] = []
    /// Each key, in the file's order.
    private(set) var keys: [Key] = []
    /// The first input toml++ would assert on or overflow its stack with, if any.
    private(set) var problem: TOMLText.Failure?

    private struct Frame {
        /// `[` or `{`.
        var bracket: UInt8
        /// For an array that is a statement's value: its key (its inline tables are tables of it).
        var arrayKey: String?
        /// For an inline table of such an array: that table.
        var table: TOMLPlaces.Table?
    }

    private static let newline: UInt8 = 0x0A
    private static let quote: UInt8 = 0x22
    private static let apostrophe: UInt8 = 0x27
    private static let hash: UInt8 = 0x23
    private static let openBracket: UInt8 = 0x5B
    private static let closeBracket: UInt8 = 0x5D
    private static let openBrace: UInt8 = 0x7B
    private static let closeBrace: UInt8 = 0x7D
    private static let comma: UInt8 = 0x2C

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var cursor = Cursor(bytes: bytes)
        // A byte order mark is not text: toml++ skips it, and so must the scan, or the first
        // line's statement would not start at its first character (a header after a mark went
        // unchecked, and toml++ asserted on it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { (cursor.index, cursor.lineStart) = (3, 3) }
        var table: TOMLPlaces.Table?
        var counts: [String: Int] = [:]
        var frames: [Frame] = []
        var expectKey = true
        var atStatementStart = true
        var lastKey: String?
        func nextIndex(of name: String) -> Int {
            defer { counts[name, default: 0] += 1 }
            return counts[name, default: 0]
        }
        while let byte = cursor.peek(), problem == nil {
            switch byte {
            case Self.newline:
                cursor.newLine()
                if frames.isEmpty { (expectKey, atStatementStart) = (true, true) }
            case 0x20, 0x09, 0x0D:
                cursor.index += 1
            case Self.hash:
                cursor.skipLine()
            case Self.openBracket where atStatementStart && frames.isEmpty:
                var after = cursor.index + 1
                if after < bytes.count, bytes[after] == Self.openBracket { after += 1 }
                while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
                if after < bytes.count, !Self.startsHeaderName(bytes[after]) {
                    problem = cursor.failure(
                        at: after, "a table header's name must start with a letter, digit, '_', '-' or a quote")
                    break
                }
                cursor.index = after
                let (name, depth) = cursor.readKey()
                if depth > Self.maxKeyDepth {
                    problem = cursor.failure(
                        at: after,
                        "a table header of \(depth) levels (the most this reader takes is \(Self.maxKeyDepth))")
                    break
                }
                table = TOMLPlaces.Table(name, index: nextIndex(of: name))
                if let table { headers.append((table, cursor.line)) }
                cursor.skipLine()
                (expectKey, atStatementStart) = (false, false)
            case _ where expectKey && (Self.isBare(byte) || byte == Self.quote || byte == Self.apostrophe):
                let start = cursor.index
                let line = cursor.line
                let (name, depth) = cursor.readKey()
                if depth > Self.maxKeyDepth {
                    problem = cursor.failure(
                        at: start, "a dotted key of \(depth) levels (the most this reader takes is \(Self.maxKeyDepth))"
                    )
                    break
                }
                let context: TOMLPlaces.Table?? = frames.isEmpty ? .some(table) : frames.last?.table.map { .some($0) }
                if let context {
                    keys.append(Key(table: context, name: name, line: line))
                    if let dot = name.firstIndex(of: ".") {
                        keys.append(Key(table: context, name: String(name[..<dot]), line: line))
                    }
                }
                lastKey = frames.isEmpty ? name : nil
                (expectKey, atStatementStart) = (false, false)
            case Self.quote, Self.apostrophe:
                atStatementStart = false
                cursor.skipString(quote: byte)
            case Self.openBracket, Self.openBrace:
                atStatementStart = false
                guard frames.count < Self.maxNesting else {
                    problem = cursor.failure(
                        at: cursor.index, "values nested more than \(Self.maxNesting) deep (arrays and inline tables)")
                    break
                }
                var frame = Frame(bracket: byte)
                if byte == Self.openBracket, frames.isEmpty { frame.arrayKey = lastKey }
                if byte == Self.openBrace {
                    if let key = frames.last?.arrayKey, frames.count == 1 {
                        let inline = TOMLPlaces.Table(key, index: nextIndex(of: key))
                        frame.table = inline
                        headers.append((inline, cursor.line))
                    }
                    expectKey = true
                }
                frames.append(frame)
                cursor.index += 1
            case Self.closeBrace where frames.last?.bracket == Self.openBracket:
                problem = cursor.failure(at: cursor.index, "'}' inside an array, which ']' closes")
            case Self.closeBracket, Self.closeBrace:
                _ = frames.popLast()
                expectKey = false
                cursor.index += 1
            case Self.comma:
                expectKey = frames.last?.bracket == Self.openBrace
                cursor.index += 1
            default:
                (expectKey, atStatementStart) = (false, false)
                cursor.index += 1
            }
        }
    }

    /// A bare key's byte: a letter, a digit, `_` or `-`.
    fileprivate static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x5F, 0x2D: return true
        default: return false
        }
    }

    /// Whether toml++ may read a header name from this byte: a bare key character, a quote, or
    /// the `]` of an empty name (which it refuses with an error of its own).
    private static func startsHeaderName(_ byte: UInt8) -> Bool {
        isBare(byte) || byte == quote || byte == apostrophe || byte == closeBracket
    }
}

/// A place in the text's bytes, with its line.
private struct Cursor {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    mutating func newLine() {
        index += 1
        line += 1
        lineStart = index
    }

    /// To the end of the line (not past it).
    mutating func skipLine() {
        while let byte = peek(), byte != 0x0A { index += 1 }
    }

    func failure(at offset: Int, _ problem: String) -> TOMLText.Failure {
        TOMLText.Failure(line: line, column: offset - lineStart + 1, problem: problem)
    }

    /// Past a string starting here; a basic string's backslash escapes the next byte.
    mutating func skipString(quote: UInt8) {
        let multiLine = peek(1) == quote && peek(2) == quote
        index += multiLine ? 3 : 1
        while let byte = peek() {
            if multiLine, byte == quote, peek(1) == quote, peek(2) == quote {
                index += 3
                return
            }
            if !multiLine, byte == quote || byte == 0x0A { break }
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += (byte == 0x5C && quote == 0x22) ? 2 : 1
        }
        if !multiLine, peek() == quote { index += 1 }
    }

    /// A key (`a`, `"a b"`, `a."b".c`) from here: its segments joined by `.` without their quotes,
    /// and how many there are.
    mutating func readKey() -> (name: String, depth: Int) {
        var segments: [Substring] = []
        var depth = 0
        while true {
            while let byte = peek(), byte == 0x20 || byte == 0x09 { index += 1 }
            guard let byte = peek() else { break }
            let start = index
            if byte == 0x22 || byte == 0x27 {
                skipString(quote: byte)
                let end = max(start + 1, peek(-1) == byte ? index - 1 : index)
                if segments.count < TOMLScan.maxKeyDepth {
                    segments.append(Substring(decoding: bytes[(start + 1)..<end], as: UTF8.self))
                }
            } else if TOMLScan.isBare(byte) {
                while let next = peek(), TOMLScan.isBare(next) { index += 1 }
                if segments.count < TOMLScan.maxKeyDepth {
                    segments.append(Substring(decoding: bytes[start..<index], as: UTF8.self))
                }
            } else {
                break
            }
            depth += 1
            while let next = peek(), next == 0x20 || next == 0x09 { index += 1 }
            guard peek() == 0x2E else { break }
            index += 1
        }
        return (segments.joined(separator: "."), depth)
    }
}
