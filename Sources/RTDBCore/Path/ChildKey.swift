/// The name of a child, ordered exactly as the Firebase SDKs order keys
/// (docs/data-model.md#ordering).
///
/// Keys that are 32-bit integers come first, numerically (`"01"` counts as 1, and of two equal
/// numbers the shorter string wins); every other key follows in UTF-16 code unit order. Two
/// sentinels bound every real key: ``ChildKey/min`` (`[MIN_NAME]`) and ``ChildKey/max``
/// (`[MAX_NAME]`; Android's `[MAX_KEY]` means the same).
public struct ChildKey: Sendable, Hashable {
    /// The key as written.
    public let string: String
    /// What orders the key, in one word, so that a key is no bigger than its string and a word:
    /// its class in the top two bits (``Class``), then, for an integer key, its value (biased, so
    /// that the words order as the values do), and for a string key whose first seven UTF-8 bytes
    /// can order it (``orderPrefix(of:)``), bit 56 and those bytes, big-endian and zero-padded.
    ///
    /// Two integer keys, or two such string keys, whose words differ are ordered by them: one
    /// integer comparison, the treap's every step. Equal words leave it to the strings.
    private let code: UInt64

    /// The kinds of key, in the order they sort.
    private enum Class: UInt64 {
        case min = 0
        case integer = 1
        case string = 2
        case max = 3
    }

    private static let classShift: UInt64 = 62
    /// Set in a string key's word when its first seven bytes follow.
    private static let prefixed: UInt64 = 1 << 56

    private var keyClass: Class { Class(rawValue: code >> Self.classShift) ?? .string }

    /// The integer value when the key is a 32-bit integer key, else nil.
    public var intValue: Int32? {
        guard keyClass == .integer else { return nil }
        return Int32(bitPattern: UInt32(truncatingIfNeeded: code) ^ 0x8000_0000)
    }

    /// The sentinel below every key.
    public static let min = ChildKey(sentinel: "[MIN_NAME]", class: .min)
    /// The sentinel above every key.
    public static let max = ChildKey(sentinel: "[MAX_NAME]", class: .max)
    /// The reserved key under which a node's priority is addressed.
    public static let priority = ChildKey(".priority")

    private init(sentinel: String, class keyClass: Class) {
        self.string = sentinel
        self.code = keyClass.rawValue << Self.classShift
    }

    /// Makes a key; bracketed names (`[MIN_NAME]`, `[MAX_NAME]`, `[MAX_KEY]`) become sentinels.
    public init(_ string: String) {
        self.string = string
        if string.utf8.first == UInt8(ascii: "["), string.utf8.last == UInt8(ascii: "]") {
            let keyClass: Class = string == "[MIN_NAME]" ? .min : .max
            self.code = keyClass.rawValue << Self.classShift
        } else if let value = ChildKey.parseIntKey(string) {
            self.code = Class.integer.rawValue << Self.classShift | UInt64(UInt32(bitPattern: value) ^ 0x8000_0000)
        } else {
            self.code = Class.string.rawValue << Self.classShift | ChildKey.orderPrefix(of: string)
        }
    }

    /// ``prefixed`` and a string key's first seven UTF-8 bytes, big-endian and zero-padded, or 0
    /// when they cannot order it: one of them starts U+E000–U+FFFF or a character beyond U+FFFF
    /// (0xEE and up), where byte order and UTF-16 order part (``UTF16Order``).
    ///
    /// Below 0xEE, two keys' first differing byte orders them as UTF-16 does, and a key that ends
    /// first (padded with 0) sorts first; keys hold no NUL, and if one did its prefix would only
    /// tie, which the full comparison settles.
    static func orderPrefix(of string: String) -> UInt64 {
        ByteScan.withBytes(of: string, orderPrefix(bytes:))
    }

    private static func orderPrefix(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var prefix: UInt64 = 0
        var taken: UInt64 = 0
        for byte in bytes {
            if taken == 7 { break }
            if byte >= 0xEE { return 0 }
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
        }
        return prefixed | prefix << (8 * (7 - taken))
    }

    /// The key as a JSON object member name (compared by code units, as the key is).
    public var codeUnitString: CodeUnitString { CodeUnitString(string) }

    /// Whether this is one of the two sentinels.
    public var isSentinel: Bool { keyClass == .min || keyClass == .max }

    /// Whether this is the reserved `.priority` key.
    public var isPriorityKey: Bool { string == ".priority" }

    /// Parses an integer key as Android and iOS do: 1–11 characters, an optional `-`, digits only,
    /// and a value in the 32-bit signed range.
    static func parseIntKey(_ string: String) -> Int32? {
        ByteScan.withBytes(of: string, parseIntKey(bytes:))
    }

    /// ``parseIntKey(_:)`` of a key's UTF-8 bytes.
    static func parseIntKey(bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard bytes.count >= 1, bytes.count <= 11 else { return nil }
        var negative = false
        var digits = 0
        var value: Int64 = 0
        var first = true
        for byte in bytes {
            if first, byte == UInt8(ascii: "-") {
                negative = true
                first = false
                continue
            }
            first = false
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        if negative { value = -value }
        return Int32(exactly: value)
    }
}

extension ChildKey: Comparable {
    /// Firebase key order.
    public static func < (lhs: ChildKey, rhs: ChildKey) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Equal keys have equal code units (``CodeUnitString``); sentinels compare by their class.
    public static func == (lhs: ChildKey, rhs: ChildKey) -> Bool {
        // Equal strings make equal words; "7" and "07" make one word, as do the two max sentinels.
        guard lhs.code == rhs.code else { return false }
        return lhs.isSentinel || CodeUnitString.equal(lhs.string, rhs.string)
    }

    /// Hashes the class and, for real keys, the string.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyClass)
        if !isSentinel { CodeUnitString.hash(string, into: &hasher) }
    }

    /// Three-way Firebase key comparison: negative, zero or positive.
    public static func compare(_ lhs: ChildKey, _ rhs: ChildKey) -> Int {
        let left = lhs.keyClass
        let right = rhs.keyClass
        if left != right { return left.rawValue < right.rawValue ? -1 : 1 }
        switch left {
        case .min, .max: return 0
        case .integer:
            if lhs.code != rhs.code { return lhs.code < rhs.code ? -1 : 1 }
            let lengthA = lhs.string.utf8.count
            let lengthB = rhs.string.utf8.count
            if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
            return UTF16Order.compare(lhs.string, rhs.string)
        case .string:
            // Most string keys differ in their first seven bytes.
            if lhs.code & rhs.code & prefixed != 0, lhs.code != rhs.code { return lhs.code < rhs.code ? -1 : 1 }
            return UTF16Order.compare(lhs.string, rhs.string)
        }
    }
}

extension ChildKey {
    /// ``compare(_:_:)`` of this key and the key whose UTF-8 bytes are `other` (a real key, not
    /// a sentinel), with no `String` made of them: a packed first list's keys are searched so.
    func compare(toKeyBytes other: UnsafeBufferPointer<UInt8>) -> Int {
        switch keyClass {
        case .min: return -1
        case .max: return 1
        case .integer:
            guard let value = ChildKey.parseIntKey(bytes: other) else { return -1 }
            let mine = Int32(bitPattern: UInt32(truncatingIfNeeded: code) ^ 0x8000_0000)
            if mine != value { return mine < value ? -1 : 1 }
            let length = string.utf8.count
            if length != other.count { return length < other.count ? -1 : 1 }
            return ByteScan.withBytes(of: string) { UTF16Order.compare($0, other) }
        case .string:
            if ChildKey.parseIntKey(bytes: other) != nil { return 1 }
            return ByteScan.withBytes(of: string) { UTF16Order.compare($0, other) }
        }
    }
}

extension ChildKey: CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as written.
    public var description: String { string }

    /// Makes a key from a literal.
    public init(stringLiteral value: String) { self.init(value) }
}
