import RTDBClient

extension QueuedWrite {
    /// A pending write in the snapshot's terms.
    init(_ write: PendingWrite) {
        let state: State
        switch write.state {
        case .queued: state = .queued
        case .inFlight: state = .inFlight
        case .paused(let reason): state = .paused(reason: reason)
        }
        self.init(
            id: write.id, operation: write.transactionName.map { "txn \($0)" } ?? write.kind.rawValue,
            path: write.path, bytes: write.bytes, enqueuedAt: write.enqueuedAt, attempts: write.attempts,
            state: state)
    }

    /// A dead letter in the snapshot's terms, with why the server refused it when that is known
    /// (the reason the client heard is Firebase's, `Permission denied`).
    init(_ letter: DeadLetter, explanation: String? = nil) {
        self.init(letter.write)
        state = .refused(
            status: letter.status.rawValue, reason: explanation.map { "\(letter.reason): \($0)" } ?? letter.reason)
    }
}
