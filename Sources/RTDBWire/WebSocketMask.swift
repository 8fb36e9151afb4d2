/// RFC 6455 §5.3's masking: each payload byte XORed with the key's bytes in turn (the same
/// operation masks and unmasks), eight bytes at a time.
///
/// One home for the client, which masks every frame it sends, and the server, which unmasks
/// every frame it reads.
public enum WebSocketMask {
    /// XORs `bytes` with `key` (its bytes as they go on the wire: the most significant first),
    /// the first byte taking the key's first byte.
    public static func apply(_ key: UInt32, to bytes: UnsafeMutableRawBufferPointer) {
        // The key as it lies in memory in wire order, twice over for a word.
        let word = UInt64(key.bigEndian)
        let wide = word | word << 32
        var index = 0
        while index + 8 <= bytes.count {
            let value = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            bytes.storeBytes(of: value ^ wide, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        withUnsafeBytes(of: key.bigEndian) { keyBytes in
            while index < bytes.count {
                bytes[index] ^= keyBytes[index % 4]
                index += 1
            }
        }
    }

    /// The text of a masked payload, unmasked as it is copied into the string; nil when the
    /// payload is not UTF-8 (RFC 6455 §8.1: the connection is to fail, with 1007).
    public static func text(_ masked: UnsafeRawBufferPointer, key: UInt32) -> String? {
        let text = String(unsafeUninitializedCapacity: masked.count) { characters in
            let out = UnsafeMutableRawBufferPointer(characters)
            out.copyMemory(from: masked)
            apply(key, to: out)
            return masked.count
        }
        // The string repairs what is not UTF-8 with U+FFFD, which is not ASCII: ASCII text is
        // the payload as it came (protocol v5's messages are JSON, nearly always ASCII).
        if isASCII(text) { return text }
        var bytes = [UInt8](masked)
        bytes.withUnsafeMutableBytes { apply(key, to: $0) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text of an unmasked payload; nil when it is not UTF-8.
    public static func text(_ unmasked: UnsafeRawBufferPointer) -> String? {
        String(validating: unmasked, as: UTF8.self)
    }

    private static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }
}
