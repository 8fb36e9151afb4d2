import RTDBCore

/// The data a transaction's update block reads and changes.
///
/// A view into one shared tree: `childData(byAppendingPath:)` returns a `MutableData` whose
/// changes land in the same transaction. Used only inside the update block, on one thread at a
/// time.
public final class MutableData {
    final class Storage {
        var node: Node
        var error: ValidationError?
        init(_ node: Node) { self.node = node }
    }

    let storage: Storage
    let path: Path

    init(node: Node) {
        storage = Storage(node)
        path = .root
    }

    private init(storage: Storage, path: Path) {
        self.storage = storage
        self.path = path
    }

    var node: Node { storage.node.child(at: path) }

    /// The value here (Swift values as in `DataSnapshot.value`); setting it replaces the data.
    public var value: Any? {
        get { DataSnapshot.swiftValue(node.plainJSON(arrays: true)) }
        set {
            do {
                let priority = node.priority
                var replacement = try Node(any: newValue, at: path)
                if replacement.priority == nil, let priority { replacement = replacement.withPriority(priority) }
                storage.node = storage.node.updating(at: path, with: replacement)
            } catch {
                storage.error = error
            }
        }
    }

    /// The priority here.
    public var priority: Any? {
        get { node.priority.map { DataSnapshot.swiftValue($0.json) } ?? nil }
        set {
            do {
                let json = try JSONValue(any: newValue, at: path)
                storage.node = storage.node.updating(
                    at: path.child(ChildKey.priority.string), with: try Node(json: json))
            } catch {
                storage.error = error
            }
        }
    }

    /// The last key of the path (nil at the transaction's location).
    public var key: String? { path.back }

    /// The number of children.
    public var childrenCount: UInt { UInt(node.childCount) }

    /// Whether there are children.
    public var hasChildren: Bool { node.childCount > 0 }

    /// Whether there is data at a relative path.
    public func hasChild(atPath path: String) -> Bool { !node.child(at: Path(path)).isEmpty }

    /// The data at a relative path, changing the same transaction.
    public func childData(byAppendingPath path: String) -> MutableData {
        MutableData(storage: storage, path: self.path.child(path))
    }

    /// The children.
    public var children: [MutableData] {
        node.children.map { MutableData(storage: storage, path: path.child(Path(segments: [$0.key.string]))) }
    }
}

/// What a transaction's update block decides: commit this data, or abort.
public struct TransactionResult {
    let data: MutableData?

    /// Commit the data.
    public static func success(withValue value: MutableData) -> TransactionResult { TransactionResult(data: value) }

    /// Abort: nothing is written.
    public static func abort() -> TransactionResult { TransactionResult(data: nil) }

    /// Whether the block aborted.
    public var isAborted: Bool { data == nil }
}
