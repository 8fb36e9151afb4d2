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

    /// A dead letter in the snapshot's terms.
    init(_ letter: DeadLetter) {
        self.init(letter.write)
        state = .refused(status: letter.status.rawValue, reason: letter.reason)
    }
}
