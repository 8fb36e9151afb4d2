extension JSONParser {
    /// Reads a large object of plain data (``parsePlainNode(depth:)``'s) into packed children:
    /// each member's key and value text kept, checked but not made into nodes.
    ///
    /// - Parameters:
    ///   - depth: The depth of the node the object is written to (its path's length).
    ///   - minimumCount: The fewest children worth packing.
    /// - Returns: The children, or nil where the plain reading would make something else (a value
    ///   it does not take), where members are not in key order (then one may repeat), or for fewer
    ///   than `minimumCount` children: the object is read to its end all the same, and the caller
    ///   reads it again the plain way.
    /// - Throws: ``JSONParseError`` for text that is not JSON.
    mutating func parsePackedObject(depth: Int, minimumCount: Int) throws(JSONParseError) -> PackedChildren? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{"), depth < Validation.maxDepth else {
            try skipValue()
            return nil
        }
        var packed: [UInt8] = []
        // Never more than the text left; an array grown by doubling may hold twice what it needs.
        packed.reserveCapacity(bytes.count - index)
        var offsets: [UInt32] = []
        var kept = true
        var last: ChildKey?
        try parseMembers { (parser, key) throws(JSONParseError) in
            guard kept, key.utf8.first != UInt8(ascii: "."), Validation.isValidKey(key) else {
                kept = false
                return try parser.skipValue()
            }
            let childKey = ChildKey(key)
            // Every member counts, a null one too: a repeated key would follow the one before it.
            if let last, ChildKey.compare(last, childKey) >= 0 { kept = false }
            last = childKey
            let start = parser.index
            switch try parser.plainShape(depth: depth + 1, from: start) {
            case .notPlain, .unordered: kept = false
            case .empty: break
            case .present:
                guard packed.count + key.utf8.count + (parser.index - start) < PackedChildren.maximumBytes else {
                    kept = false
                    return
                }
                offsets.append(UInt32(packed.count))
                packed.append(contentsOf: key.utf8)
                offsets.append(UInt32(packed.count))
                packed.append(contentsOf: UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.index]))
            }
        }
        guard kept, offsets.count / 2 >= minimumCount else { return nil }
        return PackedChildren(bytes: packed, offsets: offsets)
    }

    /// What the plain reading makes of a value.
    private enum PlainShape {
        /// A value it does not take.
        case notPlain
        /// Null, or an object of nothing but empty values.
        case empty
        /// A node with data.
        case present
        /// An object whose keys are out of order: only reading it tells (one may repeat).
        case unordered
    }

    /// Reads a value (which starts at `start`) as ``parsePlainNode(depth:)`` would, making nothing:
    /// whether it takes it, and whether the node would be empty.
    private mutating func plainShape(depth: Int, from start: Int) throws(JSONParseError) -> PlainShape {
        let shape = try skipPlain(depth: depth)
        guard shape == .unordered else { return shape }
        var again = self
        again.index = start
        guard let node = try again.parsePlainNode(depth: depth) else { return .notPlain }
        return node.isEmpty ? .empty : .present
    }

    private mutating func skipPlain(depth: Int) throws(JSONParseError) -> PlainShape {
        guard index < bytes.count else { throw error("unexpected end of input") }
        guard depth <= Validation.maxDepth else {
            try skipValue()
            return .notPlain
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try skipPlainObject(depth: depth)
        case UInt8(ascii: "\""):
            return try parseString().utf8.count <= Validation.maxStringBytes ? .present : .notPlain
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try parseNumber()
            return .present
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .present
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .present
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .empty
        default:
            try skipValue()  // an array, or the syntax error parsing names
            return .notPlain
        }
    }

    private mutating func skipPlainObject(depth: Int) throws(JSONParseError) -> PlainShape {
        var shape = PlainShape.empty
        var last: ChildKey?
        try parseMembers { (parser, key) throws(JSONParseError) in
            // A key starting `.`: a server value or a priority, which the plain reading refuses
            // or makes a server value of; neither comes in a first list.
            guard shape != .notPlain, key.utf8.first != UInt8(ascii: "."), Validation.isValidKey(key) else {
                shape = .notPlain
                return try parser.skipValue()
            }
            let childKey = ChildKey(key)
            let ordered = last.map { ChildKey.compare($0, childKey) < 0 } ?? true
            last = childKey
            switch try parser.skipPlain(depth: depth + 1) {
            case .notPlain: shape = .notPlain
            case .unordered: shape = .unordered
            case .present where shape == .empty: shape = ordered ? .present : .unordered
            case .present, .empty: if !ordered { shape = .unordered }
            }
        }
        return shape
    }
}

extension JSONParser {
    /// The fewest children an object needs to be kept packed.
    package static let packingCount = 1024
    /// The least text left before an object is tried for packing: below it, no object can have
    /// ``packingCount`` members worth the second reading a refusal costs.
    package static let packingBytes = 16 * 1024

    /// Reads a value as ``parsePlainNode(depth:)`` does, keeping a large object's children packed
    /// (``parsePackedObject(depth:minimumCount:)``): a first list read without a node per child.
    ///
    /// `minimumCount` and `minimumBytes` lower the thresholds for tests and the fuzz target.
    package mutating func parsePlainNodePacked(
        depth: Int, minimumCount: Int = packingCount, minimumBytes: Int = packingBytes
    ) throws(JSONParseError) -> Node? {
        let start = index
        if bytes.count - index >= minimumBytes, index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            if let packed = try parsePackedObject(depth: depth, minimumCount: minimumCount) {
                return Node(children: ChildrenMap(packed: packed))
            }
            index = start
        }
        return try parsePlainNode(depth: depth)
    }
}
