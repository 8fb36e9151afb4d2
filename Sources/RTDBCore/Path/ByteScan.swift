/// Scans of UTF-8 bytes eight at a time: every key, path segment and string of every message goes
/// through them, and a loop over `Sequence` elements costs several instructions a byte.
enum ByteScan {
    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < count {
            if base[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// Whether the two hold the same bytes.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let baseA = a.baseAddress, let baseB = b.baseAddress else { return true }
        if baseA == baseB { return true }
        let rawA = UnsafeRawPointer(baseA)
        let rawB = UnsafeRawPointer(baseB)
        var offset = 0
        while offset + 8 <= count {
            let wordA = rawA.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if wordA != rawB.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if baseA[offset] != baseB[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Whether a key (or, with `slashAllowed`, a path) holds a byte Firebase forbids in one:
    /// `. $ # [ ]`, `/` in a key, and the ASCII control characters.
    ///
    /// Every forbidden character is ASCII and UTF-8 never reuses ASCII bytes inside other
    /// characters, so bytes decide it exactly.
    static func containsForbiddenByte(_ bytes: UnsafeBufferPointer<UInt8>, slashAllowed: Bool) -> Bool {
        for byte in bytes where isForbidden(byte, slashAllowed: slashAllowed) { return true }
        return false
    }

    /// Whether `byte` is one of ``containsForbiddenByte(_:slashAllowed:)``'s.
    @inline(__always)
    static func isForbidden(_ byte: UInt8, slashAllowed: Bool) -> Bool {
        switch byte {
        case 0x2E, 0x24, 0x23, 0x5B, 0x5D, 0x00...0x1F, 0x7F: true
        case 0x2F: !slashAllowed
        default: false
        }
    }
}
