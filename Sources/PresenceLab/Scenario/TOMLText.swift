import TOMLKit

/// TOML text read into a table: the one place presencetop hands text to TOMLKit (themes, the
/// settings file, scenario files).
///
/// The toml++ (3.4.0) that TOMLKit vendors asserts on two kinds of bad input, where a debug build
/// aborts and a release build has undefined behaviour: a table header whose name starts with a
/// character no key may start with (`[` then a line break, `[[[a]]]`, `[[=`; fixed upstream in
/// marzer/tomlplusplus#301, after the vendored version), and a `}` where an array expects a value
/// (`x = [ }`). Both were found by fuzzing the theme reader; both are refused here first.
public enum TOMLText {
    /// Why the text is not TOML the dashboard can read.
    public struct Failure: Error {
        /// The 1-based line, when known.
        public var line: Int?
        /// The 1-based column, when known.
        public var column: Int?
        /// What is wrong.
        public var problem: String
    }

    /// Parses `text`.
    public static func table(_ text: String) throws(Failure) -> TOMLTable {
        if let refused = unsafeInput(in: text) { throw refused }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Failure(line: error.source.begin.line, column: error.source.begin.column, problem: error.description)
        } catch {
            throw Failure(problem: "\(error)")
        }
    }

    /// The first input toml++ would assert on, if any.
    ///
    /// Follows strings, comments and the brackets of values, so that a `[` inside a value (an
    /// array spread over lines) is not taken for a header.
    public static func unsafeInput(in text: String) -> Failure? {
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        var lineStart = 0
        /// The value brackets open, innermost last.
        var open: [UInt8] = []
        var depth: Int { open.count }
        var atStatementStart = true
        func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func skipString(quote: UInt8) {
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
                // A backslash escapes the next byte in basic strings, not in literal ones.
                index += (byte == 0x5C && quote == 0x22) ? 2 : 1
            }
            if !multiLine, peek() == quote { index += 1 }
        }
        while let byte = peek() {
            switch byte {
            case 0x0A:
                line += 1
                index += 1
                lineStart = index
                if depth == 0 { atStatementStart = true }
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x23:  // '#': a comment to the end of the line
                while let next = peek(), next != 0x0A { index += 1 }
            case 0x22, 0x27:
                atStatementStart = false
                skipString(quote: byte)
            case 0x5B where atStatementStart && depth == 0:
                var cursor = index + 1
                if cursor < bytes.count, bytes[cursor] == 0x5B { cursor += 1 }
                while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
                if cursor < bytes.count, !startsHeaderName(bytes[cursor]) {
                    return Failure(
                        line: line, column: cursor - lineStart + 1,
                        problem: "a table header's name must start with a letter, digit, '_', '-' or a quote")
                }
                // The rest of a header line holds no value.
                while let next = peek(), next != 0x0A { index += 1 }
            case 0x5B, 0x7B:
                atStatementStart = false
                open.append(byte)
                index += 1
            case 0x7D where open.last == 0x5B:
                return Failure(
                    line: line, column: index - lineStart + 1, problem: "'}' inside an array, which ']' closes")
            case 0x5D, 0x7D:
                _ = open.popLast()
                index += 1
            default:
                atStatementStart = false
                index += 1
            }
        }
        return nil
    }

    /// Whether toml++ may read a header name from this byte: a bare key character, a quote, or
    /// the `]` of an empty name (which it refuses with an error of its own).
    private static func startsHeaderName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x5F, 0x2D, 0x22, 0x27, 0x5D: return true
        default: return false
        }
    }
}
