import RTDBCore
import Synchronization

/// A whole tree a snapshot belongs to: the data as it is, or as a write would leave it, made
/// only when a rule looks beyond the written data (`parent()`, a `.write` rule's `newData`, a
/// `.validate` rule above the write), so that a write judged on its own node alone leaves the
/// server to make it in place.
final class RuleTree: Sendable {
    private let base: Node
    private let changes: [(path: Path, node: Node)]
    private let made = Mutex<Node?>(nil)

    /// `base` with `changes` made in order, once asked for.
    init(base: Node, changes: [(path: Path, node: Node)]) {
        self.base = base
        self.changes = changes
    }

    /// The tree, made now if it has not been.
    var node: Node {
        if changes.isEmpty { return base }
        return made.withLock { made in
            if let made { return made }
            var tree = base
            for (path, node) in changes { tree = tree.updating(at: path, with: node) }
            made = tree
            return tree
        }
    }

    /// The tree if a rule made it (or it needed no making), else nil.
    var madeNode: Node? {
        changes.isEmpty ? base : made.withLock { $0 }
    }
}
