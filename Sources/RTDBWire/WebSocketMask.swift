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

    /// The text of a masked payload, unmasked as it is copied into the string (invalid UTF-8
    /// repaired, as `String(decoding:as:)` does).
    public static func text(_ masked: UnsafeRawBufferPointer, key: UInt32) -> String {
        String(unsafeUninitializedCapacity: masked.count) { characters in
            let out = UnsafeMutableRawBufferPointer(characters)
            out.copyMemory(from: masked)
            apply(key, to: out)
            return masked.count
        }
    }
}
