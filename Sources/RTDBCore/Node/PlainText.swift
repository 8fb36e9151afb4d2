/// Steps through JSON text already checked to be plain data (``PackedChildren``'s): where a value
/// ends, an object's members, whether a value is empty, with no check made again.
///
/// The parser checks as it reads (UTF-8, numbers, limits); reading a packed first list's fields
/// again in it cost as much as making the nodes. Text from anywhere else goes to the parser.
enum PlainText {
    /// Where the whitespace from `start` ends (the parser's own rule).
    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var parser = JSONParser(bytes: bytes)
        parser.index = start
        parser.skipWhitespace()
        return parser.index
    }

    /// Where the string opening at `start` ends (after its closing quote), and whether it has an
    /// escape.
    static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, escaped: Bool) {
        var index = start + 1
        var escaped = false
        while true {
            index = ByteScan.firstQuoteOrBackslash(bytes, from: index)
            guard index < bytes.count else { return (bytes.count, escaped) }
            if bytes[index] == UInt8(ascii: "\"") { return (index + 1, escaped) }
            escaped = true
            index += 2
        }
    }

    /// Where the value starting at `start` ends.
    static func endOfValue(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index).end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// Calls `body` with each member of the object at `start` (nothing for another value): its
    /// key's bytes between the quotes, whether the key has an escape, and its value's bytes;
    /// `body` returns whether to go on.
    static func forEachMember(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ body: (Range<Int>, Bool, Range<Int>) -> Bool
    ) {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return }
        var index = skipWhitespace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let (keyEnd, escaped) = endOfString(bytes, from: index)
            let key = (index + 1)..<(keyEnd - 1)
            // The colon, then the value.
            let valueStart = skipWhitespace(bytes, from: skipWhitespace(bytes, from: keyEnd) + 1)
            let valueEnd = endOfValue(bytes, from: valueStart)
            guard body(key, escaped, valueStart..<valueEnd) else { return }
            // The comma (or the closing brace, where no key follows).
            index = skipWhitespace(bytes, from: skipWhitespace(bytes, from: valueEnd) + 1)
        }
    }

    /// Whether the value at `start` would be an empty node: null, or an object of nothing but
    /// empty values.
    static func isEmpty(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start < bytes.count else { return true }
        switch bytes[start] {
        case UInt8(ascii: "n"): return true
        case UInt8(ascii: "{"):
            var empty = true
            forEachMember(bytes, at: start) { _, _, value in
                empty = isEmpty(bytes, at: value.lowerBound)
                return empty
            }
            return empty
        default: return false
        }
    }

    /// The string whose bytes (between its quotes) are `range`, escapes read.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var parser = JSONParser(
            bytes: UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - 1)..<(range.upperBound + 1)]))
        return (try? parser.parseString()) ?? ""
    }
}
