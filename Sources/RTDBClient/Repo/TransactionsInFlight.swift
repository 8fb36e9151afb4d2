import RTDBCore

/// The transactions in flight, each path's queue in the order its transactions started.
///
/// ``TransactionRunner`` runs them (docs/client-engine.md#transactions); this keeps them.
struct TransactionsInFlight {
    private var queues: [Path: [TransactionRecord]] = [:]

    /// Adds a transaction at the end of its path's queue.
    mutating func append(_ record: TransactionRecord) { queues[record.path, default: []].append(record) }

    /// The transactions at `path`, in order (nil: none).
    func records(at path: Path) -> [TransactionRecord]? { queues[path] }

    /// The queues whose transactions are all ready to run on the server, each sent as one write.
    var readyToSend: [(path: Path, records: [TransactionRecord])] {
        queues.compactMap { path, queue in
            !queue.isEmpty && queue.allSatisfy({ $0.status == .run }) ? (path, queue) : nil
        }
    }

    /// The paths with transactions at, above or below `path`.
    func paths(overlapping path: Path) -> [Path] {
        queues.keys.filter { $0.contains(path) || path.contains($0) }
    }

    /// Whether a transaction at `path` waits to run again.
    func hasRunnable(at path: Path) -> Bool { queues[path]?.contains { $0.status == .run } == true }

    /// Forgets the completed transactions at `path` (and the queue, once empty).
    mutating func removeCompleted(at path: Path) {
        let left = queues[path]?.filter { $0.status != .completed } ?? []
        queues[path] = left.isEmpty ? nil : left
    }

    /// Forgets every transaction (the engine shuts down).
    mutating func removeAll() { queues = [:] }
}
