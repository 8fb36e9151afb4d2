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

    /// Calls `body` with the whole buffer and where the value starts in it (after whitespace).
    private func scan<Result>(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Result) -> Result {
        children.withBytes { buffer in body(buffer, PlainText.skipWhitespace(buffer, from: range.lowerBound)) }
    }

    /// The value's first byte (0 for none).
    private var firstByte: UInt8 {
        scan { bytes, start in start < range.upperBound ? bytes[start] : 0 }
    }

    /// Whether the node would be empty: null, or an object of nothing but empty values.
    public var isEmpty: Bool {
        scan { bytes, start in PlainText.isEmpty(bytes, at: start) }
    }

    /// The member `name`; nil when it is missing or empty (as the node's child would be).
    public func member(_ name: String) -> PackedValue? {
        var name = name
        return name.withUTF8 { wanted in
            scan { bytes, start -> PackedValue? in
                var found: Range<Int>?
                PlainText.forEachMember(bytes, at: start) { key, escaped, value in
                    let matches =
                        escaped
                        ? CodeUnitString.equal(PlainText.string(bytes, key), String(decoding: wanted, as: UTF8.self))
                        : ByteScan.equal(UnsafeBufferPointer(rebasing: bytes[key]), wanted)
                    // Plain text has no repeated key: the one that matches is the member.
                    if matches { found = value }
                    return !matches
                }
                guard let found, !PlainText.isEmpty(bytes, at: found.lowerBound) else { return nil }
                return PackedValue(children: children, range: found)
            }
        }
    }

    /// The members of an object in key order, empty ones left out; nil for anything else, and for
    /// an object with none (the node would have no children).
    public var members: [(key: String, value: PackedValue)]? {
        var members = scan { bytes, start in
            var found: [(key: String, value: PackedValue)] = []
            PlainText.forEachMember(bytes, at: start) { key, escaped, value in
                if !PlainText.isEmpty(bytes, at: value.lowerBound) {
                    let name = escaped ? PlainText.string(bytes, key) : String(decoding: bytes[key], as: UTF8.self)
                    found.append((name, PackedValue(children: children, range: value)))
                }
                return true
            }
            return found
        }
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
        scan { bytes, start in
            guard start < range.upperBound, bytes[start] == UInt8(ascii: "\"") else { return nil }
            let (end, escaped) = PlainText.endOfString(bytes, from: start)
            let inside = (start + 1)..<(end - 1)
            return escaped ? PlainText.string(bytes, inside) : String(decoding: bytes[inside], as: UTF8.self)
        }
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
