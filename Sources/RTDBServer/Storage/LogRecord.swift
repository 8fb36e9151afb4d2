import RTDBCore

/// One applied write as it is made durable: server values already resolved, so replaying the
/// log rebuilds exactly the same tree.
public struct LogRecord: Sendable, Hashable {
    /// How the record changes the tree.
    public enum Kind: Int, Sendable {
        /// Replace the node at `path` with `data`.
        case set = 0
        /// For each relative path in the `data` object, replace the node there.
        case merge = 1
    }

    /// The position of the write in the namespace's total order (from 1).
    public var sequence: UInt64
    /// Where the write applies.
    public var path: Path
    /// Set or merge.
    public var kind: Kind
    /// Export-format JSON text of the resolved data (empty in the records of an engine whose
    /// store keeps nothing: no one reads them).
    public var data: String
    /// The client's idempotency key for the write, when it sent one.
    public var idempotencyKey: String?

    /// Makes a record.
    public init(sequence: UInt64, path: Path, kind: Kind, data: String, idempotencyKey: String? = nil) {
        self.sequence = sequence
        self.path = path
        self.kind = kind
        self.data = data
        self.idempotencyKey = idempotencyKey
    }

    /// Applies the record to a tree.
    public func apply(to root: Node) throws -> Node {
        let json = try JSONParser.parse(data)
        switch kind {
        case .set:
            return root.updating(at: path, with: try Node(json: json, at: path))
        case .merge:
            var result = root
            for (relative, value) in json.objectValue ?? [:] {
                let target = path.child(relative.string)
                result = result.updating(at: target, with: try Node(json: value, at: target))
            }
            return result
        }
    }
}
