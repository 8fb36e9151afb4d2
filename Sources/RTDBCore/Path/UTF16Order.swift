/// String comparison by UTF-16 code units, the order JavaScript, Java and Objective-C use.
///
/// Swift's `String <` compares by Unicode canonical equivalence, which differs (for example for
/// `"é"` written two ways, and for characters beyond U+FFFF against U+E000–U+FFFF).
public enum UTF16Order {
    /// Three-way comparison of `a` and `b` by UTF-16 code units: negative, zero or positive.
    ///
    /// Works on UTF-8 bytes: byte order equals code point order, which equals UTF-16 order except
    /// when a code point in U+E000–U+FFFF meets one above U+FFFF (a surrogate pair sorts lower).
    public static func compare(_ a: String, _ b: String) -> Int {
        // The bytes read in place; a copy only for a string not stored as UTF-8.
        let inPlace = a.utf8.withContiguousStorageIfAvailable { bytesA in
            b.utf8.withContiguousStorageIfAvailable { bytesB in compare(bytesA, bytesB) }
        }
        if let inPlace, let order = inPlace { return order }
        var a = a
        var b = b
        return a.withUTF8 { bytesA in
            b.withUTF8 { bytesB in compare(bytesA, bytesB) }
        }
    }

    /// Three-way comparison of two UTF-8 encoded strings by UTF-16 code units.
    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let count = Swift.min(a.count, b.count)
        var index = 0
        while index < count, a[index] == b[index] { index += 1 }
        if index == count {
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        }
        let byteA = a[index]
        let byteB = b[index]
        // Differing lead bytes: 0xEE/0xEF start U+E000–U+FFFF, 0xF0–0xF4 start a supplementary
        // character, which UTF-16 writes as a surrogate (0xD800–0xDFFF) and so sorts first.
        let highBMPA = byteA == 0xEE || byteA == 0xEF
        let highBMPB = byteB == 0xEE || byteB == 0xEF
        if highBMPA, byteB >= 0xF0 { return 1 }
        if highBMPB, byteA >= 0xF0 { return -1 }
        return byteA < byteB ? -1 : 1
    }

    /// Whether `a` sorts before `b` by UTF-16 code units.
    public static func lessThan(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }
}
