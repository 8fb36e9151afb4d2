/// The presence filter as typed, ready to be looked for in ids and device names, case-blind.
///
/// A million ids are searched at each key, so ASCII text (most ids) is searched byte by byte,
/// lowercasing as it goes; other text is lowercased whole first, as before.
struct FilterNeedle {
    /// The filter, lowercased.
    let lowercased: String
    /// Its bytes, when it is ASCII.
    private let ascii: [UInt8]?

    init(_ filter: String) {
        lowercased = filter.lowercased()
        let bytes = Array(lowercased.utf8)
        ascii = bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    }

    /// Whether nothing is filtered.
    var isEmpty: Bool { lowercased.isEmpty }

    /// Whether `text` contains the filter, case-blind.
    func matches(_ text: String) -> Bool {
        if lowercased.isEmpty { return true }
        if let ascii {
            let found = text.utf8.withContiguousStorageIfAvailable { Self.search(ascii, in: $0) }
            // Found among ASCII bytes is found; not found in all-ASCII text is not found.
            if let found, let answer = found { return answer }
        }
        return text.lowercased().contains(lowercased)
    }

    /// Whether `needle` occurs in `text` with ASCII letters lowercased; nil when not found and
    /// `text` has bytes outside ASCII (their lowercase may hold ASCII: the Kelvin sign's is `k`).
    private static func search(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool? {
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        var onlyASCII = true
        let count = needle.count
        guard count <= text.count else { return text.allSatisfy { $0 < 0x80 } ? false : nil }
        for start in 0...(text.count - count) {
            if text[start] >= 0x80 { onlyASCII = false }
            var matched = true
            for offset in 0..<count where lower(text[start + offset]) != needle[offset] {
                matched = false
                break
            }
            if matched { return true }
        }
        for byte in text[(text.count - count + 1)...] where byte >= 0x80 { onlyASCII = false }
        return onlyASCII ? false : nil
    }
}
