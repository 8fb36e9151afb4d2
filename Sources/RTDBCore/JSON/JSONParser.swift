import OrderedCollections

/// A JSON syntax error, with the byte offset where it was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The byte offset into the input.
    public var offset: Int

    /// A one-line message naming the problem and where it is.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 JSON parser working on UTF-8 bytes.
///
/// Written here rather than using Foundation because the engine needs integers kept apart from
/// doubles (`5` vs `5.0`, exact values up to 2^63) and it sits on the server's hot path.
public struct JSONParser {
    /// The deepest nesting accepted; deeper input is rejected rather than overflowing the stack.
    public static let maximumDepth = 1000

    /// The input; valid only during one `parse` call, which never lets the parser escape.
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// Whether ``parsePlainNode(depth:)`` has read a server value.
    package internal(set) var readServerValues = false

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses a complete JSON document.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in Result { () throws(JSONParseError) in try parseDocument(buffer) } }.get()
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    public static func parse(bytes: some Sequence<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parseDocument(buffer) }
        }.get()
    }

    private static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index != parser.bytes.count {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }

    /// Parses one JSON value at the start of `text` and returns it with the unparsed rest.
    public static func parsePrefix(_ text: String) throws(JSONParseError) -> (value: JSONValue, rest: String) {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(bytes: buffer)
                parser.skipWhitespace()
                let value = try parser.parseValue()
                return (value, String(decoding: UnsafeBufferPointer(rebasing: buffer[parser.index...]), as: UTF8.self))
            }
        }.get()
    }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Unicode.Scalar(bytes[index]))'")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal") }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    /// Reads an object into its members; a key given twice keeps its first place and its last value.
    ///
    /// Keys and values are gathered in two arrays and handed over at once: inserting them one by
    /// one into the ordered dictionary grew both its arrays a step at a time (most of parsing a
    /// small message). Below ``smallObject`` members a repeated key is found by a scan.
    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var keys = ContiguousArray<CodeUnitString>()
        var values = ContiguousArray<JSONValue>()
        keys.reserveCapacity(4)
        values.reserveCapacity(4)
        var large: JSONValue.Members?
        try parseMembers { (parser, text) throws(JSONParseError) in
            let key = CodeUnitString(text)
            let value = try parser.parseValue()
            if large != nil {
                large?[key] = value
            } else if let earlier = keys.firstIndex(of: key) {
                values[earlier] = value
            } else if keys.count < JSONParser.smallObject {
                keys.append(key)
                values.append(value)
            } else {
                var members = JSONValue.Members(uncheckedUniqueKeys: keys, values: values)
                members[key] = value
                large = members
            }
        }
        return .object(large ?? JSONValue.Members(uncheckedUniqueKeys: keys, values: values))
    }

    /// The most members an object gathers in arrays, scanning them for a repeated key.
    static let smallObject = 16

    /// Reads an object, calling `member` with each key while the parser stands at its value (the
    /// call must read the value).
    package mutating func parseMembers(
        _ member: (inout JSONParser, String) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try parseMembers(readingKeys: { (parser) throws(JSONParseError) in try parser.parseString() }, member)
    }

    /// Reads an object: `readKey` reads each key (the parser at its opening quote), then `member`
    /// is called with it while the parser stands at its value (the call must read the value).
    mutating func parseMembers<Key>(
        readingKeys readKey: (inout JSONParser) throws(JSONParseError) -> Key,
        _ member: (inout JSONParser, Key) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let key = try readKey(&self)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        try parseElements { (parser) throws(JSONParseError) in elements.append(try parser.parseValue()) }
        return .array(elements)
    }

    /// Reads an array, calling `element` while the parser stands at each element (the call must
    /// read it).
    mutating func parseElements(_ element: (inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    package mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        var isIntegral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isIntegral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isIntegral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isIntegral, let value = Int64(text) {
            if value == 0, bytes[start] == UInt8(ascii: "-") { return .double(-0.0) }
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    package mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        index = ByteScan.firstStringSpecial(bytes, from: index)
        if index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = try decodeUTF8(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return string
            }
            if byte < 0x20 { throw error("control character in a string") }
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try buffer.withUnsafeBufferPointer { pointer in
                    Result { () throws(JSONParseError) in try decodeUTF8(pointer) }
                }.get()
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error("control character in a string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    /// The string the bytes spell, refusing invalid UTF-8.
    ///
    /// Not `String(validating:as:)`: it is generic and not specialized for a caller, and looked up
    /// type metadata on every call (a third of parsing a write's message). Decoding, which
    /// repairs, is not; it gives back the very bytes it was given exactly when they were valid,
    /// which ASCII always is.
    private func decodeUTF8(_ slice: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> String {
        var string = String(decoding: slice, as: UTF8.self)
        if ByteScan.isASCII(slice) { return string }
        guard string.withUTF8({ ByteScan.equal($0, slice) }) else { throw error("invalid UTF-8 in a string") }
        return string
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalarValue = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalarValue) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in a string") }
                index += 2
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in a string") }
                scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalarValue) {
                throw error("unpaired surrogate in a string")
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid unicode escape") }
            buffer.append(contentsOf: String(Character(scalar)).utf8)
        default:
            throw error("invalid escape '\\\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("truncated unicode escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt16
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a unicode escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
