import RTDBCore

extension FuzzTarget {
    /// JSON text imported as a tree: what parses prints back to the same value, and a tree built
    /// from it exports to JSON that builds the same tree (with the same hash); the check that
    /// lets text go out unparsed passes exactly the text that parses.
    static func json(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        packed(text)
        let parses = (try? JSONParser.parse(text)) != nil
        fuzzInvariant(
            JSONParser.isDocument(text) == parses, "the check and the parser disagree on \(text.debugDescription)")
        guard let json = try? JSONParser.parse(bytes: bytes) else { return }
        let printed = json.jsonString
        let again = try? JSONParser.parse(printed)
        fuzzInvariant(again == json, "\(printed) does not read back as the value it printed")
        guard let node = try? Node(json: json) else { return }
        let exported = node.exportJSON
        let rebuilt = try? Node(json: exported)
        fuzzInvariant(rebuilt == node, "the export \(exported.jsonString) does not rebuild its tree")
        fuzzInvariant(rebuilt?.hashString == node.hashString, "the rebuilt tree's hash differs")
    }

    /// Text kept packed (the thresholds lowered to one child) reads as the plain reading's node,
    /// and each packed child read in place answers as its node does.
    private static func packed(_ text: String) {
        let packed = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNodePacked(depth: 0, minimumCount: 1, minimumBytes: 0)
        }
        let plain = JSONParser.reading(text) { (parser) throws(JSONParseError) -> Node? in
            try parser.parsePlainNode(depth: 0)
        }
        fuzzInvariant((packed ?? nil) == (plain ?? nil), "\(text.debugDescription) packed reads otherwise than plain")
        guard let node = packed ?? nil, node.children.isPacked else { return }
        node.children.forEachChild { key, value in
            guard case .packed(let value) = value else { return }
            let child = node.children[key] ?? .empty
            fuzzInvariant(value.node == child, "\(key.string) read in place as \(value.node), as a node \(child)")
            fuzzInvariant(value.isObject == !child.children.isEmpty, "\(key.string): an object or not")
            fuzzInvariant(
                value.members?.map(\.key) ?? [] == child.children.keys.map(\.string), "\(key.string)'s members")
            if case .string(let string)? = child.leafValue { fuzzInvariant(value.string == string, "\(key.string)") }
            if case .number(let number)? = child.leafValue {
                fuzzInvariant(value.exactInteger == number.exactInt, "\(key.string)'s number")
            }
            for (name, grandchild) in child.children {
                fuzzInvariant(value.member(name.string)?.node == grandchild, "\(key.string)/\(name.string)")
            }
        }
    }
}
