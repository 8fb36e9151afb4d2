import Synchronization

/// Export-format JSON that becomes a node the first time something looks inside it.
///
/// A restart reads megabytes of cached rows and thousands of queued writes, and most of it is
/// never looked at before the first event (a value listener on a list needs its keys, not every
/// child's fields). Parsing is thread-safe and happens once; every copy of the node shares it.
final class DeferredNode: Sendable, Hashable {
    /// The text as stored.
    let text: String
    private let parsed = AtomicLazyReference<Parsed>()

    private final class Parsed: Sendable {
        let node: Node
        init(_ node: Node) { self.node = node }
    }

    init(text: String) {
        self.text = text
    }

    /// The parsed node (never itself deferred); unreadable text reads as the empty node.
    var node: Node {
        if let parsed = parsed.load() { return parsed.node }
        let node = (try? JSONParser.parseNode(text)) ?? .empty
        return parsed.storeIfNil(Parsed(node)).node
    }

    /// Whether the text has been parsed.
    var isParsed: Bool { parsed.load() != nil }

    static func == (lhs: DeferredNode, rhs: DeferredNode) -> Bool { lhs === rhs || lhs.node == rhs.node }

    func hash(into hasher: inout Hasher) { hasher.combine(node) }

    /// Whether the text may hold a server value; false is certain, true means "look inside".
    var mayContainServerValues: Bool {
        if isParsed { return node.containsServerValues }
        // A server value is stored as `{".sv": …}`: search the bytes for that key.
        var text = text
        return text.withUTF8 { bytes in
            let needle: [UInt8] = Array(#"".sv""#.utf8)
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }
}

extension Node {
    /// A node read later from export-format JSON that this program wrote itself (a disk cache row,
    /// a queued write); `null` is the empty node at once.
    ///
    /// Nothing is parsed until the node's content, priority or hash is asked for; whether it is
    /// empty is known without parsing (stored nodes are never empty), and so is whether it holds
    /// server values when the text has no `.sv`. Unreadable text reads as the empty node.
    public init(deferredJSON text: String) {
        if text == "null" {
            self = .empty
        } else {
            self.init(deferred: DeferredNode(text: text))
        }
    }

    /// The stored text of a node that has not been looked into yet, else nil.
    public var unparsedJSON: String? {
        guard let deferred = deferredNode, !deferred.isParsed else { return nil }
        return deferred.text
    }
}
