extension JSONParser {
    /// Reads a string (the parser at its opening quote) without making it a `String`: its bytes
    /// as they stand between the quotes, or nil when it has an escape (it is read and checked all
    /// the same).
    ///
    /// For readers that only tell known ASCII words apart, such as a message's member names. The
    /// bytes are the text's own, valid while it is read, and not checked to be UTF-8: text read
    /// from a Swift string always is.
    package mutating func parseRawString() throws(JSONParseError) -> UnsafeBufferPointer<UInt8>? {
        let opening = index
        index = ByteScan.firstStringSpecial(bytes, from: index + 1)
        if index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeBufferPointer(rebasing: bytes[(opening + 1)..<(index - 1)])
            }
            if byte == UInt8(ascii: "\\") {
                index = opening
                _ = try parseString()
                return nil
            }
            throw error("control character in a string")
        }
        throw error("unterminated string")
    }

    /// Reads an object as ``parseMembers(_:)`` does, with each key as ``parseRawString()`` reads
    /// it.
    package mutating func parseMembers(
        rawKeys member: (inout JSONParser, UnsafeBufferPointer<UInt8>?) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        try parseMembers(readingKeys: { (parser) throws(JSONParseError) in try parser.parseRawString() }, member)
    }
}
