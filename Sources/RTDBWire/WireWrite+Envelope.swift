import RTDBCore

extension WireWrite {
    /// A member's name or a word as it stands in the message's bytes (``JSONParser/parseRawString()``).
    typealias Name = UnsafeBufferPointer<UInt8>

    /// The members the reading knows, told apart by their bytes (never by `String ==`, which
    /// would take a key canonically equal to one of these for it).
    enum Member: UInt16 {
        case type = 1
        case data = 2
        case number = 4
        case action = 8
        case body = 16
        case path = 32
        case hash = 64
        case key = 128
        case other = 0

        /// The member a key's bytes name (read with no `String` made: a message has a dozen).
        init(_ key: Name) {
            switch key.count == 1 ? key.first : nil {
            case UInt8(ascii: "t"): self = .type
            case UInt8(ascii: "d"): self = .data
            case UInt8(ascii: "r"): self = .number
            case UInt8(ascii: "a"): self = .action
            case UInt8(ascii: "b"): self = .body
            case UInt8(ascii: "p"): self = .path
            case UInt8(ascii: "h"): self = .hash
            default: self = key.elementsEqual("ik".utf8) ? .key : .other
            }
        }
    }

    /// What the envelope's members said so far; `failed` once anything was not plain.
    ///
    /// `d` means the data message at the top and the written data in the body, so the levels
    /// keep their own sets of the members seen.
    struct Envelope {
        var failed = false
        var isData = false
        var seen: UInt32 = 0
        var number: Int?
        var isUpdate: Bool?
        var path: Path?
        var node: Node?
        var children: [(relative: Path, node: Node)]?
        var hash: String?
        var idempotencyKey: String?
        /// `null` until the data is read (a set without `d` removes).
        var dataText: String? = "null"
        /// Where the body starts, when it came before the action: it is read once the action is
        /// known (clients that send a dictionary's members in any order do this).
        var laterBody: JSONParser?
        /// Where the data starts, when it came before the path.
        var laterData: JSONParser?

        /// The change read, once the message has ended.
        var change: Change? {
            guard !failed, let isUpdate else { return nil }
            if isUpdate { return children.map { .update($0) } }
            return .set(node ?? .empty, hash: hash)
        }

        /// Whether `member` is new at `level`; a repeat fails the reading (the general reading
        /// keeps a repeated member's last value).
        mutating func first(_ member: Member, at level: Int) -> Bool {
            guard member != .other else { return true }
            let bit = UInt32(member.rawValue) << (8 * level)
            if seen & bit != 0 {
                failed = true
                return false
            }
            seen |= bit
            return true
        }

        /// `{"t":"d","d":{…}}`.
        mutating func readTop(_ key: Name?, from parser: inout JSONParser) throws(JSONParseError) {
            // A key spelled with an escape is left to the general reading.
            guard let key else { return try fail(skipping: &parser) }
            let member = Member(key)
            guard !failed, first(member, at: 0) else { return try parser.skipValue() }
            switch member {
            case .type where parser.nextByte() == UInt8(ascii: "\""):
                isData = Self.isText(try parser.parseRawString(), "d")
                if !isData { failed = true }
            case .data where parser.nextByte() == UInt8(ascii: "{"):
                try parser.parseMembers(rawKeys: { (parser, key) throws(JSONParseError) in
                    try readData(key, from: &parser)
                })
            default:
                failed = true
                try parser.skipValue()
            }
        }

        /// `{"r":N,"a":"p"|"m","b":{…}}`.
        mutating func readData(_ key: Name?, from parser: inout JSONParser) throws(JSONParseError) {
            guard let key else { return try fail(skipping: &parser) }
            let member = Member(key)
            guard !failed, first(member, at: 1) else { return try parser.skipValue() }
            switch member {
            case .number:
                guard let next = parser.nextByte(), next == UInt8(ascii: "-") || (0x30...0x39).contains(next) else {
                    failed = true
                    return try parser.skipValue()
                }
                guard case .int(let value) = try parser.parseNumber(), let small = Int32(exactly: value) else {
                    failed = true
                    return
                }
                number = Int(small)
            case .action where parser.nextByte() == UInt8(ascii: "\""):
                let action = try parser.parseRawString()
                if Self.isText(action, "p") {
                    isUpdate = false
                } else if Self.isText(action, "m") {
                    isUpdate = true
                } else {
                    failed = true
                }
            case .body where parser.nextByte() == UInt8(ascii: "{"):
                guard isUpdate != nil else {
                    laterBody = parser
                    return try parser.skipValue()
                }
                try readBody(from: &parser)
            default:
                failed = true
                try parser.skipValue()
            }
        }

        /// The body, once the action is known: its members, then the data if it came before the
        /// path.
        mutating func readBody(from parser: inout JSONParser) throws(JSONParseError) {
            try parser.parseMembers(rawKeys: { (parser, key) throws(JSONParseError) in
                try readBody(key, from: &parser)
            })
            if var data = laterData, path != nil, !failed {
                laterData = nil
                try readWritten(from: &data)
            }
        }

        /// What is left once the message's members are read: a body that came before the action.
        mutating func finish() throws(JSONParseError) {
            guard var body = laterBody, !failed else { return }
            laterBody = nil
            guard isUpdate != nil else {
                failed = true
                return
            }
            try readBody(from: &body)
        }

        /// `{"p":path,"d":data,"h":hash,"ik":key}`; other members are ignored, as the general
        /// reading ignores them.
        mutating func readBody(_ key: Name?, from parser: inout JSONParser) throws(JSONParseError) {
            guard let key else { return try fail(skipping: &parser) }
            let member = Member(key)
            guard !failed, first(member, at: 2) else { return try parser.skipValue() }
            switch member {
            case .path where parser.nextByte() == UInt8(ascii: "\""):
                let written = Path(try parser.parseString())
                if (try? Validation.validatePath(written.writeTarget)) == nil { failed = true }
                path = written
            case .data where path != nil:
                try readWritten(from: &parser)
            case .data:
                laterData = parser
                try parser.skipValue()
            case .hash where isUpdate == true:
                try parser.skipValue()  // an update has no hash
            case .hash:
                hash = try readText(from: &parser, allowed: { _ in true })
            case .key:
                idempotencyKey = try readText(from: &parser) { key in
                    !key.isEmpty && key.utf8.count <= ClientRequest.maxIdempotencyKeyLength
                }
            case .other:
                try parser.skipValue()
            default:
                failed = true
                try parser.skipValue()
            }
        }

        /// The written data: a node for a set, an object of relative paths for an update.
        mutating func readWritten(from parser: inout JSONParser) throws(JSONParseError) {
            guard let path else { return }
            let start = parser.nextByte() != nil ? parser.offset : 0
            defer { dataText = failed || parser.readServerValues ? nil : parser.text(since: start) }
            guard isUpdate == true else {
                node = try parser.parsePlainNode(depth: path.writeTarget.count)
                if node == nil { failed = true }
                return
            }
            guard parser.nextByte() == UInt8(ascii: "{") else {
                failed = true
                return try parser.skipValue()
            }
            var read: [(relative: Path, node: Node)] = []
            var keys = Set<CodeUnitString>()
            try parser.parseMembers { (parser, key) throws(JSONParseError) in
                guard !failed, keys.insert(CodeUnitString(key)).inserted else {
                    failed = true
                    return try parser.skipValue()
                }
                let relative = Path(key)
                guard let node = try parser.parsePlainNode(depth: path.child(relative).writeTarget.count) else {
                    failed = true  // the value read itself to its end
                    return
                }
                read.append((relative, node))
            }
            children = read
        }

        /// A string member, or null (nil); anything else (or a string `allowed` refuses) fails.
        mutating func readText(
            from parser: inout JSONParser, allowed: (String) -> Bool
        ) throws(JSONParseError) -> String? {
            switch parser.nextByte() {
            case UInt8(ascii: "n"):
                try parser.skipValue()
                return nil
            case UInt8(ascii: "\""):
                let text = try parser.parseString()
                if !allowed(text) { failed = true }
                return text
            default:
                failed = true
                try parser.skipValue()
                return nil
            }
        }

        /// Whether `text` (a string's bytes, nil when it had an escape) has exactly the code units
        /// of `expected`.
        static func isText(_ text: Name?, _ expected: StaticString) -> Bool {
            guard let text else { return false }
            return expected.withUTF8Buffer { text.elementsEqual($0) }
        }

        /// Gives the message up to the general reading, the parser past the member's value.
        mutating func fail(skipping parser: inout JSONParser) throws(JSONParseError) {
            failed = true
            try parser.skipValue()
        }
    }
}
