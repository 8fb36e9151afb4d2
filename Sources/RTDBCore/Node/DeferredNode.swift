import Synchronization

/// Export-format JSON that becomes a node the first time something looks inside it.
///
/// A restart reads megabytes of cached rows and thousands of queued writes, and most of it is
/// never looked at before the first event (a value listener on a list needs its keys, not every
/// child's fields). Parsing is thread-safe and happens once; every copy of the node shares it,
/// and the text is let go once parsed.
final class DeferredNode: Sendable, Hashable {
    /// The UTF-8 text as stored until parsed, then empty (bytes, not a `String`: validating
    /// megabytes of our own rows as UTF-8 at start-up would cost as much as reading them).
    private let text: Mutex<[UInt8]>
    private let parsed = AtomicLazyReference<Parsed>()

    private final class Parsed: Sendable {
        let node: Node
        init(_ node: Node) { self.node = node }
    }

    init(text: [UInt8]) {
        self.text = Mutex(text)
    }

    /// The parsed node (never itself deferred); unreadable text reads as the empty node.
    var node: Node {
        if let parsed = parsed.load() { return parsed.node }
        return text.withLock { text in
            if let parsed = parsed.load() { return parsed.node }
            let node = text.withUnsafeBufferPointer { (try? JSONParser.parseNode(bytes: $0)) ?? .empty }
            text = []
            return parsed.storeIfNil(Parsed(node)).node
        }
    }

    /// Whether the text has been parsed.
    var isParsed: Bool { parsed.load() != nil }

    /// The text, while it has not been parsed (nil after).
    var unparsedText: String? {
        text.withLock { text in isParsed ? nil : String(decoding: text, as: UTF8.self) }
    }

    /// The bytes of text still held (none once parsed).
    var textBytes: Int { text.withLock { $0.count } }

    static func == (lhs: DeferredNode, rhs: DeferredNode) -> Bool { lhs === rhs || lhs.node == rhs.node }

    func hash(into hasher: inout Hasher) { hasher.combine(node) }

    /// Whether the text may hold a server value; false is certain, true means "look inside".
    var mayContainServerValues: Bool {
        let unparsed = text.withLock { text -> Bool? in
            if isParsed { return nil }
            // A server value is stored as `{".sv": …}`: search the bytes for that key.
            return DeferredNode.containsServerValueKey(text)
        }
        return unparsed ?? node.containsServerValues
    }

    private static func containsServerValueKey(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { bytes in
            // `".sv"`, byte by byte.
            let needle: (UInt8, UInt8, UInt8, UInt8, UInt8) = (0x22, 0x2E, 0x73, 0x76, 0x22)
            guard bytes.count >= 5 else { return false }
            for start in 0...(bytes.count - 5) where bytes[start] == needle.0 {
                if bytes[start + 1] == needle.1, bytes[start + 2] == needle.2, bytes[start + 3] == needle.3,
                    bytes[start + 4] == needle.4
                {
                    return true
                }
            }
            return false
        }
    }
}

extension Node {
    /// The export-format JSON text a deferred node was made from, while nothing has looked
    /// inside it (nil for any other node): storing it again needs no parse and no export.
    public var unparsedJSONText: String? { deferredNode?.unparsedText }

    /// A node read later from export-format JSON that this program wrote itself (a disk cache row,
    /// a queued write); `null` is the empty node at once.
    ///
    /// Nothing is parsed until the node's content, priority or hash is asked for; whether it is
    /// empty is known without parsing (stored nodes are never empty), and so is whether it holds
    /// server values when the text has no `.sv`. Unreadable text reads as the empty node.
    public init(deferredJSON text: String) {
        self.init(deferredBytes: Array(text.utf8))
    }

    /// A node read later from export-format JSON bytes (copied) that this program wrote itself.
    public init(deferredJSON bytes: UnsafeBufferPointer<UInt8>) {
        self.init(deferredBytes: Array(bytes))
    }

    private init(deferredBytes bytes: [UInt8]) {
        if bytes.elementsEqual("null".utf8) || bytes.elementsEqual("{}".utf8) {
            self = .empty
        } else {
            self.init(deferred: DeferredNode(text: bytes))
        }
    }
}
