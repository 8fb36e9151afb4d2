/// A string whose equality, hashing and order are by UTF-16 code units, as Firebase compares keys,
/// uids and tokens: the one home of key identity in this engine (docs/data-model.md#keys).
///
/// Swift's `String ==` (and so its hashing, `Dictionary` and `Set`) treats canonically equivalent
/// strings as one: `"é"` (U+00E9) equals `"e\u{301}"`. Firebase stores them as two keys, and a
/// rule's `auth.uid == $uid` tells them apart. Use this type wherever a string names something a
/// client chose: object members, keys, uids, idempotency keys, secrets.
///
/// Equal code units are equal UTF-8 bytes (both encode the same scalars), so the checks here run on
/// the UTF-8 bytes Swift stores natively; only order needs UTF-16's view (``UTF16Order``).
public struct CodeUnitString: Sendable, Hashable, Comparable {
    /// The string as written.
    public let string: String

    /// Wraps `string`.
    public init(_ string: String) { self.string = string }

    /// Code unit equality.
    public static func == (lhs: CodeUnitString, rhs: CodeUnitString) -> Bool {
        equal(lhs.string, rhs.string)
    }

    /// Hashes the UTF-8 bytes.
    public func hash(into hasher: inout Hasher) {
        CodeUnitString.hash(string, into: &hasher)
    }

    /// UTF-16 code unit order.
    public static func < (lhs: CodeUnitString, rhs: CodeUnitString) -> Bool {
        UTF16Order.compare(lhs.string, rhs.string) < 0
    }

    // MARK: - The rules, for code that keeps plain `String`s

    /// Whether `a` and `b` have the same code units (not merely canonically equivalent).
    ///
    /// Reads both strings' bytes in place (a copy to make them contiguous only for a string that
    /// is not stored as UTF-8): keys are compared on every lookup, and a copy costs a retain.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let inPlace = a.utf8.withContiguousStorageIfAvailable { bytesA in
            b.utf8.withContiguousStorageIfAvailable { bytesB in
                ByteScan.equal(bytesA, bytesB)
            }
        }
        if let inPlace, let equal = inPlace { return equal }
        return a.utf8.elementsEqual(b.utf8)
    }

    /// Feeds the code units of `string` to `hasher`, consistently with ``equal(_:_:)``.
    public static func hash(_ string: String, into hasher: inout Hasher) {
        let count = ByteScan.withBytes(of: string) { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return bytes.count
        }
        hasher.combine(count)
    }

    /// Whether `string` starts with the code units of `prefix`.
    public static func hasPrefix(_ string: String, _ prefix: String) -> Bool {
        ByteScan.withBytes(of: string) { bytes in
            ByteScan.withBytes(of: prefix) { head in
                head.count <= bytes.count && ByteScan.equal(UnsafeBufferPointer(rebasing: bytes[..<head.count]), head)
            }
        }
    }

    /// Whether `string` ends with the code units of `suffix`.
    public static func hasSuffix(_ string: String, _ suffix: String) -> Bool {
        ByteScan.withBytes(of: string) { bytes in
            ByteScan.withBytes(of: suffix) { tail in
                tail.count <= bytes.count
                    && ByteScan.equal(UnsafeBufferPointer(rebasing: bytes[(bytes.count - tail.count)...]), tail)
            }
        }
    }

    /// Whether the code units of `part` occur in `string` (UTF-8 is self-synchronising, so a byte
    /// match of a whole string always starts and ends on scalar boundaries).
    public static func contains(_ string: String, _ part: String) -> Bool {
        part.isEmpty || firstRange(of: Array(part.utf8), in: Array(string.utf8), from: 0) != nil
    }

    /// `string` with every occurrence of `old`'s code units replaced by `new`, left to right, as
    /// JavaScript's `replaceAll` does.
    public static func replacing(_ old: String, with new: String, in string: String) -> String {
        let needle = Array(old.utf8)
        guard !needle.isEmpty else { return string }
        let haystack = Array(string.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var position = 0
        while let start = firstRange(of: needle, in: haystack, from: position) {
            result.append(contentsOf: haystack[position..<start])
            result.append(contentsOf: new.utf8)
            position = start + needle.count
        }
        result.append(contentsOf: haystack[position...])
        return String(decoding: result, as: UTF8.self)
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

extension CodeUnitString: ExpressibleByStringLiteral, CustomStringConvertible {
    /// Makes one from a literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The string as written.
    public var description: String { string }
}
