import RTDBCore

/// A set (`p`) or an update (`m`) read straight from its message's text, its data made nodes on
/// the way: the server's reading of almost every write, with no `JSONValue` between the text and
/// the tree.
///
/// ``read(_:)`` takes only what it can read exactly as ``WireMessage/init(text:)``,
/// ``ClientRequest/init(action:body:)`` and ``Node/init(json:at:)`` would, and gives nil for
/// anything else (another action, a repeated key, a key starting with `.` other than a server
/// value's `.sv`, an array, a value breaking a limit, text that is not JSON): that is read the
/// general way, which names the problem. So both ways give the same request for every message.
/// Its members may come in any order.
public struct WireWrite: Sendable {
    /// What the write changes.
    public enum Change: Sendable {
        /// Set the node at the path (`nil` hash: unconditionally).
        case set(Node, hash: String?)
        /// Set each node at its path relative to the write's path, in the order sent.
        case update([(relative: Path, node: Node)])
    }

    /// The request number to answer.
    public var number: Int
    /// Where the write applies, as sent (it may end in `.priority`).
    public var path: Path
    /// The data.
    public var change: Change
    /// The body's `ik`, when sent.
    public var idempotencyKey: String?
    /// The data's JSON text as sent, which the server's log keeps rather than exporting the nodes.
    ///
    /// It reads back to the change's nodes (an update's: its object of relative paths). Nil when
    /// the data holds a server value (the log keeps it resolved) or was not read straight from
    /// its text.
    public var dataText: String?

    /// Reads `text` when it is a plain set or update (see the type's summary); nil otherwise.
    public static func read(_ text: String) -> WireWrite? {
        JSONParser.reading(text) { (parser) throws(JSONParseError) in
            guard parser.nextByte() == UInt8(ascii: "{") else { return nil }
            var envelope = Envelope()
            try parser.parseMembers(rawKeys: { (parser, key) throws(JSONParseError) in
                try envelope.readTop(key, from: &parser)
            })
            try envelope.finish()
            guard parser.nextByte() == nil, envelope.isData, let number = envelope.number, let path = envelope.path,
                let change = envelope.change
            else { return nil }
            return WireWrite(
                number: number, path: path, change: change, idempotencyKey: envelope.idempotencyKey,
                dataText: envelope.dataText)
        }
    }
}
