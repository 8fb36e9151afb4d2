/// A packed child's value (or a value inside it) read in place from its text: what its node would
/// answer, with no node made.
///
/// A first list of a million users is read once, each user's few fields looked up where they
/// stand; making each user's node first was most of that reading. Every answer is the one
/// ``PackedChildren/node(at:)``'s node gives: the text was checked to be plain data when it came.
public struct PackedValue: Sendable {
    private let children: PackedChildren
    private let range: Range<Int>

    init(children: PackedChildren, range: Range<Int>) {
        self.children = children
        self.range = range
    }

    /// The value as a node.
    public var node: Node {
        read { parser in ((try? parser.parsePlainNode(depth: 0)) ?? nil) ?? .empty }
    }

    private func read<Result>(_ body: (inout JSONParser) -> Result) -> Result {
        children.withBytes { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: buffer[range]))
            parser.skipWhitespace()
            return body(&parser)
        }
    }

    /// The value's first byte (0 for none).
    private var firstByte: UInt8 {
        read { parser in parser.nextByte() ?? 0 }
    }

    /// The members of an object, empty ones left out, in the text's order.
    private func rawMembers() -> [(key: String, value: PackedValue)] {
        let base = range.lowerBound
        return read { parser in
            guard parser.nextByte() == UInt8(ascii: "{") else { return [] }
            var found: [(key: String, value: PackedValue)] = []
            try? parser.parseMembers { (parser, key) throws(JSONParseError) in
                let start = parser.offset
                try parser.skipValue()
                let value = PackedValue(children: children, range: (base + start)..<(base + parser.offset))
                if !value.isEmpty { found.append((key, value)) }
            }
            return found
        }
    }

    /// Whether the node would be empty: null, or an object of nothing but empty values.
    public var isEmpty: Bool {
        switch firstByte {
        case UInt8(ascii: "n"), 0: return true
        case UInt8(ascii: "{"): return rawMembers().isEmpty
        default: return false
        }
    }

    /// The member `name`; nil when it is missing or empty (as the node's child would be).
    public func member(_ name: String) -> PackedValue? {
        let base = range.lowerBound
        let found = read { parser -> PackedValue? in
            guard parser.nextByte() == UInt8(ascii: "{") else { return nil }
            var found: PackedValue?
            try? parser.parseMembers { (parser, key) throws(JSONParseError) in
                let start = parser.offset
                try parser.skipValue()
                // Plain text has no repeated key: the one that matches is the member.
                if found == nil, CodeUnitString.equal(key, name) {
                    found = PackedValue(children: children, range: (base + start)..<(base + parser.offset))
                }
            }
            return found
        }
        guard let found, !found.isEmpty else { return nil }
        return found
    }

    /// The members of an object in key order, empty ones left out; nil for anything else, and for
    /// an object with none (the node would have no children).
    public var members: [(key: String, value: PackedValue)]? {
        var members = rawMembers()
        guard !members.isEmpty else { return nil }
        let keys = members.map { ChildKey($0.key) }
        if !zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) {
            members = zip(keys, members).sorted { $0.0 < $1.0 }.map(\.1)
        }
        return members
    }

    /// Whether the node would have children.
    public var isObject: Bool { firstByte == UInt8(ascii: "{") && !isEmpty }

    /// The string, if this is one.
    public var string: String? {
        guard firstByte == UInt8(ascii: "\"") else { return nil }
        return read { parser in try? parser.parseString() }
    }

    /// The exact 64-bit integer, if this is a number with one.
    public var exactInteger: Int64? {
        switch firstByte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return read { parser in (try? parser.parseNumber())?.exactInt }
        default:
            return nil
        }
    }

    /// The kind of value: `a boolean`, `a number`, `a string`, `an object` or `null`, as the
    /// node's would read.
    public var kind: String {
        switch firstByte {
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return isEmpty ? "null" : "an object"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return "null"
        }
    }
}
