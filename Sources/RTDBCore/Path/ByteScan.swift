/// Scans of UTF-8 bytes eight at a time: every key, path segment and string of every message goes
/// through them, and a loop over `Sequence` elements costs several instructions a byte.
package enum ByteScan {
    /// Whether every byte is below 0x80.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
    package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// Calls `body` with the UTF-8 bytes of `string`, read in place (a copy only for a string not
    /// stored as contiguous UTF-8): stepping through `String.UTF8View` costs several instructions
    /// a byte.
    @inline(__always)
    package static func withBytes<R>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = string
        return copy.withUTF8(body)
    }
}
