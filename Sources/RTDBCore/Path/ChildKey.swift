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
    /// The integer value when the key is a 32-bit integer key, else nil.
    public let intValue: Int32?
    private let rank: Rank

    private enum Rank: UInt8, Sendable {
        case min = 0
        case normal = 1
        case max = 2
    }

    /// The sentinel below every key.
    public static let min = ChildKey(sentinel: "[MIN_NAME]", rank: .min)
    /// The sentinel above every key.
    public static let max = ChildKey(sentinel: "[MAX_NAME]", rank: .max)
    /// The reserved key under which a node's priority is addressed.
    public static let priority = ChildKey(".priority")

    private init(sentinel: String, rank: Rank) {
        self.string = sentinel
        self.intValue = nil
        self.rank = rank
    }

    /// Makes a key; bracketed names (`[MIN_NAME]`, `[MAX_NAME]`, `[MAX_KEY]`) become sentinels.
    public init(_ string: String) {
        self.string = string
        if string.utf8.first == UInt8(ascii: "["), string.utf8.last == UInt8(ascii: "]") {
            self.rank = string == "[MIN_NAME]" ? .min : .max
            self.intValue = nil
        } else {
            self.rank = .normal
            self.intValue = ChildKey.parseIntKey(string)
        }
    }

    /// The key as a JSON object member name (compared by code units, as the key is).
    public var codeUnitString: CodeUnitString { CodeUnitString(string) }

    /// Whether this is one of the two sentinels.
    public var isSentinel: Bool { rank != .normal }

    /// Whether this is the reserved `.priority` key.
    public var isPriorityKey: Bool { string == ".priority" }

    /// Parses an integer key as Android and iOS do: 1–11 characters, an optional `-`, digits only,
    /// and a value in the 32-bit signed range.
    static func parseIntKey(_ string: String) -> Int32? {
        let utf8 = string.utf8
        guard utf8.count >= 1, utf8.count <= 11 else { return nil }
        var iterator = utf8.makeIterator()
        var negative = false
        var digits = 0
        var value: Int64 = 0
        var first = true
        while let byte = iterator.next() {
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

    /// Equal keys have equal code units (``CodeUnitString``); sentinels compare by rank.
    public static func == (lhs: ChildKey, rhs: ChildKey) -> Bool {
        lhs.rank == rhs.rank && (lhs.rank != .normal || CodeUnitString.equal(lhs.string, rhs.string))
    }

    /// Hashes the rank and, for real keys, the string.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        if rank == .normal { CodeUnitString.hash(string, into: &hasher) }
    }

    /// Three-way Firebase key comparison: negative, zero or positive.
    public static func compare(_ lhs: ChildKey, _ rhs: ChildKey) -> Int {
        if lhs.rank != rhs.rank { return lhs.rank.rawValue < rhs.rank.rawValue ? -1 : 1 }
        if lhs.rank != .normal { return 0 }
        switch (lhs.intValue, rhs.intValue) {
        case (let a?, let b?):
            if a != b { return a < b ? -1 : 1 }
            let lengthA = lhs.string.utf8.count
            let lengthB = rhs.string.utf8.count
            if lengthA != lengthB { return lengthA < lengthB ? -1 : 1 }
            return UTF16Order.compare(lhs.string, rhs.string)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return UTF16Order.compare(lhs.string, rhs.string)
        }
    }
}

extension ChildKey: CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as written.
    public var description: String { string }

    /// Makes a key from a literal.
    public init(stringLiteral value: String) { self.init(value) }
}
