import RTDBCore
import RTDBWire

/// One transaction in flight (docs/client-engine.md#transactions).
final class TransactionRecord {
    enum Status { case run, sent, sentNeedsAbort, needsAbort, completed }

    let path: Path
    let update: (MutableData) -> TransactionResult
    let completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?
    let applyLocally: Bool
    let watcher: ObserverRegistration
    var status = Status.run
    var retryCount = 0
    var abortReason: WireStatus?
    var writeID = 0
    /// The transaction's id in the pending-writes list (its first write id; stable across reruns).
    var pendingID = 0
    /// A named transaction is kept on disk and rerun after a restart.
    var name: String?
    var outputRaw = Node.empty
    var outputResolved = Node.empty

    init(
        path: Path, update: @escaping (MutableData) -> TransactionResult,
        completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?, applyLocally: Bool,
        watcher: ObserverRegistration
    ) {
        self.path = path
        self.update = update
        self.completion = completion
        self.applyLocally = applyLocally
        self.watcher = watcher
    }
}
