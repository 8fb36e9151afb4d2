import RTDBCore

/// Acknowledged writes waiting to be cached on disk, in the order they were acknowledged: the
/// nodes they leave in the server cache and the complete tracked queries they make.
///
/// Kept as values, not as one save per write, so that a draining queue's thousands are saved in
/// a few statements (``ClientStore/saveAcknowledged(_:in:)``).
struct AcknowledgedWrites: Sendable {
    /// Where each node goes, oldest first: a node at P replaces every cached row at and below P.
    private(set) var nodes: [(path: Path, node: Node)] = []
    /// The tracked queries to save, oldest first (a later row with the same id replaces an earlier).
    private(set) var trackedQueries: [TrackedQuery] = []

    /// Nothing waits to be saved.
    var isEmpty: Bool { nodes.isEmpty && trackedQueries.isEmpty }

    /// Caches `node` at `path`, after the nodes before it.
    mutating func append(_ path: Path, _ node: Node) {
        nodes.append((path, node))
    }

    /// Saves `query`, after the queries before it.
    mutating func append(_ query: TrackedQuery) {
        trackedQueries.append(query)
    }

    /// Puts `earlier` before these (a save that failed goes again before what came since).
    mutating func prepend(_ earlier: AcknowledgedWrites) {
        nodes = earlier.nodes + nodes
        trackedQueries = earlier.trackedQueries + trackedQueries
    }
}
