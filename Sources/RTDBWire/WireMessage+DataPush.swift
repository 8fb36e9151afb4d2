import RTDBCore

extension WireMessage {
    /// A data push read straight into a node: ``ServerPush/dataNode(path:node:tag:)``.
    ///
    /// The push is `{"t":"d","d":{"a":"d","b":{"p":path,"d":data,"t":tag}}}`, its members in any
    /// order. Nil for any other message, and for a push whose data the plain reading does not
    /// take (arrays, priorities, a repeated member): those are read as usual.
    ///
    /// A first list of a million users arrives as one such push; read the usual way it became a
    /// JSON tree (an ordered dictionary of a million members) and then the nodes, twice the work
    /// and a transient tree larger than the nodes.
    public static func dataPush(inText text: String) -> ServerPush? {
        JSONParser.reading(text) { (parser) throws(JSONParseError) -> ServerPush? in
            var reader = DataPushReader()
            guard parser.nextByte() == UInt8(ascii: "{") else { return nil }
            try parser.parseMembers { (parser, key) throws(JSONParseError) in try reader.readEnvelope(key, &parser) }
            guard parser.nextByte() == nil else { return nil }
            return try reader.push()
        }
    }
}

/// The members of a data push as they are read.
private struct DataPushReader {
    var failed = false
    var seen: Set<String> = []
    var path: Path?
    var tag: Int?
    /// The data, read once the path (and so its depth) is known.
    var node: Node?
    /// The parser standing at the data, when it came before the path.
    var laterData: JSONParser?

    /// Whether `key` of `scope` is met for the first time (a repeated member fails the reading).
    mutating func first(_ scope: String, _ key: String) -> Bool {
        if !seen.insert(scope + key).inserted { failed = true }
        return !failed
    }

    /// A member of an object of one string member (`text`: must be `d`) and one object member
    /// (`object`, whose members `inner` reads); `scope` names the object.
    mutating func readMember(
        _ scope: String, _ key: String, _ parser: inout JSONParser, text: String, object: String,
        _ inner: (inout DataPushReader, String, inout JSONParser) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        guard first(scope, key) else { return try parser.skipValue() }
        if key == text, parser.nextByte() == UInt8(ascii: "\"") {
            if try parser.parseString() != "d" { failed = true }
        } else if key == object, parser.nextByte() == UInt8(ascii: "{") {
            try parser.parseMembers { (parser, key) throws(JSONParseError) in try inner(&self, key, &parser) }
        } else {
            failed = true
            try parser.skipValue()
        }
    }

    /// The message: `{"t":"d","d":…}`.
    mutating func readEnvelope(_ key: String, _ parser: inout JSONParser) throws(JSONParseError) {
        try readMember("", key, &parser, text: "t", object: "d") { (reader, key, parser) throws(JSONParseError) in
            try reader.readMessage(key, &parser)
        }
    }

    /// Its data: `{"a":"d","b":…}`.
    mutating func readMessage(_ key: String, _ parser: inout JSONParser) throws(JSONParseError) {
        try readMember("d.", key, &parser, text: "a", object: "b") { (reader, key, parser) throws(JSONParseError) in
            try reader.readBody(key, &parser)
        }
    }

    mutating func readBody(_ key: String, _ parser: inout JSONParser) throws(JSONParseError) {
        guard first("d.b.", key) else { return try parser.skipValue() }
        switch key {
        case "p" where parser.nextByte() == UInt8(ascii: "\""):
            path = Path(try parser.parseString())
        case "d" where path != nil:
            node = try readData(&parser)
        case "d":
            laterData = parser
            try parser.skipValue()
        case "t" where parser.nextByte() != UInt8(ascii: "n"):
            guard case .int(let value) = try parser.parseNumber(), let exact = Int(exactly: value) else {
                failed = true
                return
            }
            tag = exact
        default:
            // Another member (a query, a null tag): the usual reading knows it.
            failed = true
            try parser.skipValue()
        }
    }

    /// The data as a node, or nil (failing the reading) where the plain reading does not take it.
    mutating func readData(_ parser: inout JSONParser) throws(JSONParseError) -> Node? {
        let node = try parser.parsePlainNodePacked(depth: path?.count ?? 0)
        if node == nil || parser.readServerValues { failed = true }
        return node
    }

    /// The push read, if every member was a data push's.
    mutating func push() throws(JSONParseError) -> ServerPush? {
        if var later = laterData, node == nil, path != nil { node = try readData(&later) }
        // The type and the action were each `d` where given; both must have been.
        guard !failed, seen.contains("t"), seen.contains("d.a"), let path, let node else { return nil }
        return .dataNode(path: path, node: node, tag: tag)
    }
}
