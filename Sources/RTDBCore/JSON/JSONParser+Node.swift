extension JSONParser {
    /// Parses trusted export-format JSON text straight into a node, with no `JSONValue` in between.
    ///
    /// For data this program validated before storing it (a disk cache, a log): like
    /// ``Node/init(trustedJSON:)`` it skips key and size checks, and it halves the allocations of
    /// parsing then converting, which dominate loading a large cache.
    public static func parseNode(_ text: String) throws(JSONParseError) -> Node {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(bytes: buffer)
                parser.skipWhitespace()
                let node = try parser.parseNodeValue()
                parser.skipWhitespace()
                if parser.index != parser.bytes.count { throw parser.error("unexpected data after the value") }
                return node
            }
        }.get()
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
        try enter()
        index += 1
        var entries: [(key: ChildKey, node: Node)] = []
        var specials: JSONValue.Members = [:]
        var value: Node?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .empty
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            if key == ".value" {
                value = try parseNodeValue()
            } else if key.utf8.first == UInt8(ascii: ".") {
                specials[key] = try parseValue()
            } else {
                let child = try parseNodeValue()
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                break
            } else {
                throw error("expected ',' or '}'")
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
