extension JSONParser {
    /// Parses trusted export-format JSON text straight into a node, with no `JSONValue` in between.
    ///
    /// For data this program validated before storing it (a disk cache, a log): like
    /// ``Node/init(trustedJSON:)`` it skips key and size checks, and it halves the allocations of
    /// parsing then converting, which dominate loading a large cache.
    public static func parseNode(_ text: String) throws(JSONParseError) -> Node {
        var text = text
        return try text.withUTF8 { buffer in Result { () throws(JSONParseError) in try parseNode(bytes: buffer) } }
            .get()
    }

    /// Parses trusted export-format JSON bytes straight into a node (see ``parseNode(_:)``).
    public static func parseNode(bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> Node {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let node = try parser.parseNodeValue()
        parser.skipWhitespace()
        if parser.index != parser.bytes.count { throw parser.error("unexpected data after the value") }
        return node
    }

    private mutating func parseNodeValue() throws(JSONParseError) -> Node {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseNodeObject()
        case UInt8(ascii: "["): return try parseNodeArray()
        case UInt8(ascii: "\""): return Node(.string(try parseString()))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(.number(try parseNumber()))
        default: return Node(trustedJSON: try parseValue())  // true, false, null
        }
    }

    private mutating func parseNodeObject() throws(JSONParseError) -> Node {
        var entries: [(key: ChildKey, node: Node)] = []
        var specials: JSONValue.Members = [:]
        var value: Node?
        try parseMembers { (parser, key) throws(JSONParseError) in
            if key == ".value" {
                value = try parser.parseNodeValue()
            } else if key.utf8.first == UInt8(ascii: ".") {
                specials[CodeUnitString(key)] = try parser.parseValue()
            } else {
                let child = try parser.parseNodeValue()
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
        }
        if specials[".sv"] != nil { return Node(trustedJSON: .object(specials)) }
        let priority = specials[".priority"].flatMap { try? Priority(json: $0, at: .root) }
        if let value { return value.withPriority(priority) }
        return Node(children: ChildrenMap(entries), priority: priority)
    }

    private mutating func parseNodeArray() throws(JSONParseError) -> Node {
        guard case .array(let elements) = try parseValue() else { throw error("expected an array") }
        return Node(trustedJSON: .array(elements))
    }
}
