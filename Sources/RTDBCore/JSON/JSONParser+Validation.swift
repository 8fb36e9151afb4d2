extension JSONParser {
    /// Checks that `text` is one complete JSON document, as ``parse(_:)`` would accept it, without
    /// building it (`object`: and that its value is an object): text that passes can be written
    /// into a message as it is, with no parse and no export (a draining queue sends thousands of
    /// stored writes).
    ///
    /// The same reader checks both (strings, numbers, nesting depth), so text this passes parses,
    /// and text that parses passes.
    public static func validate(_ text: String, object: Bool = false) throws(JSONParseError) {
        var text = text
        try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(bytes: buffer)
                parser.skipWhitespace()
                if object, parser.index >= buffer.count || buffer[parser.index] != UInt8(ascii: "{") {
                    throw parser.error("expected an object")
                }
                try parser.skipValue()
                parser.skipWhitespace()
                if parser.index != parser.bytes.count { throw parser.error("unexpected data after the JSON value") }
            }
        }.get()
    }

    /// Whether `text` is one complete JSON document (`object`: whose value is an object).
    public static func isDocument(_ text: String, object: Bool = false) -> Bool {
        (try? validate(text, object: object)) != nil
    }

    /// Reads one value as ``parseValue()`` does, keeping nothing of it.
    package mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            // Keys decoded, as parsing checks them (a key of bytes that are not UTF-8 is refused).
            try parseMembers({ (parser, _) throws(JSONParseError) in try parser.skipValue() })
        case UInt8(ascii: "["):
            try parseElements { (parser) throws(JSONParseError) in try parser.skipValue() }
        case UInt8(ascii: "\""): _ = try parseString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: _ = try parseValue()  // true, false, null, or the error parsing gives
        }
    }
}
