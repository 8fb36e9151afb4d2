#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Searches eight bytes at a time for the bytes JSON text turns on: a string's closing quote, an
/// escape, a control character. A first list is a hundred megabytes of mostly string bytes, read
/// by the server writing it, the client counting and checking it, and the directory reading it.
extension ByteScan {
    /// Eight copies of one byte.
    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// Whether some byte of `word` is below `limit` (≤ 0x80): exact for "some", though not for
    /// which (a borrow may mark a byte above one that is).
    @inline(__always)
    private static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- repeated(limit)) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    private static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ repeated(byte))
    }

    /// Where the first `"` or `\` at or after `start` is, or `bytes.count`.
    ///
    /// The C library's `memchr` finds the quote, then the backslash before it: it reads 32 bytes
    /// at a time, and a user's kilobyte of profile is skipped several times on each read of them.
    package static func firstQuoteOrBackslash(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let origin = UnsafeRawPointer(base)
        let from = origin + start
        let quote = memchr(from, 0x22, bytes.count - start).map { UnsafeRawPointer($0) - origin } ?? bytes.count
        guard quote > start else { return quote }
        return memchr(from, 0x5C, quote - start).map { UnsafeRawPointer($0) - origin } ?? quote
    }

    /// Where the first `"`, `\` or control character (below 0x20) at or after `start` is, or
    /// `bytes.count`: where a string's plain run ends.
    package static func firstStringSpecial(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        firstIndex(
            bytes, from: start,
            inWord: { hasByte(0x22, in: $0) || hasByte(0x5C, in: $0) || hasByte(below: 0x20, in: $0) },
            isWanted: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 })
    }

    /// Where the first byte JSON writes escaped (`"`, `\`, a control character or DEL) at or
    /// after `start` is, or `bytes.count`.
    package static func firstNeedingEscape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        firstIndex(
            bytes, from: start,
            inWord: {
                hasByte(0x22, in: $0) || hasByte(0x5C, in: $0) || hasByte(below: 0x20, in: $0) || hasByte(0x7F, in: $0)
            },
            isWanted: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 == 0x7F })
    }

    /// Where the first byte `isWanted` takes at or after `start` is, or `bytes.count`: words are
    /// passed by while `inWord` says none of their bytes is wanted (it may say one is when none
    /// is, never the other way), the rest read a byte at a time.
    @inline(__always)
    private static func firstIndex(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, inWord: (UInt64) -> Bool, isWanted: (UInt8) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var offset = start
        while offset + 8 <= count, !inWord(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { offset += 8 }
        while offset < count {
            if isWanted(base[offset]) { return offset }
            offset += 1
        }
        return count
    }
}
