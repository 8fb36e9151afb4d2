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
    ///
    /// The unmasking sees whether every byte is ASCII, as protocol v5's JSON nearly always is:
    /// such text is valid as it is (measured, 129-byte messages, -O: 75 ns, where copying without
    /// the check took 73 and a second pass to check 115). Anything else is validated.
    public static func text(_ masked: UnsafeRawBufferPointer, key: UInt32) -> String? {
        var isASCII = false
        let text = String(unsafeUninitializedCapacity: masked.count) { characters in
            let out = UnsafeMutableRawBufferPointer(characters)
            out.copyMemory(from: masked)
            isASCII = unmaskCheckingASCII(key, out)
            return masked.count
        }
        if isASCII { return text }
        // The string repaired what is not UTF-8: validate the bytes themselves.
        var bytes = [UInt8](masked)
        bytes.withUnsafeMutableBytes { apply(key, to: $0) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text of an unmasked payload; nil when it is not UTF-8.
    public static func text(_ unmasked: UnsafeRawBufferPointer) -> String? {
        String(validating: unmasked, as: UTF8.self)
    }

    /// ``apply(_:to:)``, saying whether every byte it leaves is ASCII (the high bits of the
    /// words it writes, gathered as it goes).
    private static func unmaskCheckingASCII(_ key: UInt32, _ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        let word = UInt64(key.bigEndian)
        let wide = word | word << 32
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            let value = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ wide
            bytes.storeBytes(of: value, toByteOffset: index, as: UInt64.self)
            high |= value
            index += 8
        }
        withUnsafeBytes(of: key.bigEndian) { keyBytes in
            while index < bytes.count {
                bytes[index] ^= keyBytes[index % 4]
                high |= UInt64(bytes[index])
                index += 1
            }
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
