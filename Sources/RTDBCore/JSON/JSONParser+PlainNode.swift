extension JSONParser {
    /// Reads one written value straight into a node, when the value is plain data.
    ///
    /// The node is the one ``Node/init(json:at:)`` would make. Plain data is objects with valid
    /// keys, none of them repeated or starting with `.`, server values (`{".sv": …}` alone, which
    /// set ``readServerValues``) and leaves within the limits; no arrays.
    /// Almost every write is; reading it here spares the `JSONValue` in between (a string and an
    /// ordered dictionary for each object).
    ///
    /// - Parameter depth: The depth of the node the value is written to (its path's length).
    /// - Returns: The node, or nil when the value is not plain data (or breaks a limit): the value
    ///   is read to its end all the same, and the caller reads the message the general way, which
    ///   makes the node or names the problem.
    /// - Throws: ``JSONParseError`` for text that is not JSON.
    package mutating func parsePlainNode(depth: Int) throws(JSONParseError) -> Node? {
        guard index < bytes.count else { throw error("unexpected end of input") }
        guard depth <= Validation.maxDepth else {
            try skipValue()
            return nil
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parsePlainObject(depth: depth)
        case UInt8(ascii: "\""):
            let string = try parseString()
            return string.utf8.count <= Validation.maxStringBytes ? Node(.string(string)) : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return Node(.number(try parseNumber()))  // finite: the parser refuses the rest
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return Node(.bool(true))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return Node(.bool(false))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .empty
        default:
            try skipValue()  // an array, or the syntax error parsing names
            return nil
        }
    }

    /// An object's members as children, in key order; nil for a key that is not plain (a repeated
    /// one too: the general reading keeps its last value, which may be a null).
    private mutating func parsePlainObject(depth: Int) throws(JSONParseError) -> Node? {
        var entries: [(key: ChildKey, node: Node)] = []
        var serverValue: ServerValuePlaceholder?
        var plain = true
        var ascending = true
        try parseMembers { (parser, key) throws(JSONParseError) in
            if plain, entries.isEmpty, serverValue == nil, CodeUnitString.equal(key, ".sv") {
                // `{".sv": …}` alone: a server value, as the general reading makes it.
                let placeholder = try? ServerValuePlaceholder(
                    json: .object([".sv": try parser.parseValue()]), at: .root)
                serverValue = placeholder ?? nil
                plain = serverValue != nil
                return
            }
            guard plain, serverValue == nil, key.utf8.first != UInt8(ascii: "."), Validation.isValidKey(key) else {
                plain = false
                try parser.skipValue()
                return
            }
            guard let child = try parser.parsePlainNode(depth: depth + 1) else {
                plain = false  // the child read itself to its end
                return
            }
            let childKey = ChildKey(key)
            if let last = entries.last, ChildKey.compare(last.key, childKey) >= 0 { ascending = false }
            entries.append((childKey, child))
        }
        guard plain else { return nil }
        if let serverValue {
            readServerValues = true
            return Node(.serverValue(serverValue))
        }
        if !ascending {
            entries.sort { $0.key < $1.key }
            for position in entries.indices.dropFirst() where entries[position - 1].key == entries[position].key {
                return nil
            }
        }
        entries.removeAll { $0.node.isEmpty }
        return Node(children: ChildrenMap(sorted: entries))
    }
}
