extension JSONParser {
    /// Walks `text` with `read`, which steps through it with the parser's own readers (a reader of
    /// one message shape in another module of this package, such as the wire's writes).
    ///
    /// - Returns: What `read` returns; nil when it does, or when the text is not JSON.
    package static func reading<Result>(
        _ text: String, _ read: (inout JSONParser) throws(JSONParseError) -> Result?
    ) -> Result? {
        var text = text
        return text.withUTF8 { buffer in
            var parser = JSONParser(bytes: buffer)
            return try? read(&parser)
        }
    }

    /// The byte the parser stands at, after any whitespace; nil at the end of the text.
    package mutating func nextByte() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// The byte offset the parser stands at.
    package var offset: Int { index }

    /// The text read from `start` (a byte offset) to where the parser stands: valid UTF-8, since
    /// the parser read it.
    package func text(since start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}
