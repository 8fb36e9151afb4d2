import RTDBCore

extension Repo {
    /// The queue changed: observers hear about it once per turn of the queue, however many
    /// writes changed in it.
    func pendingWritesChanged() {
        changes.signal()
        // Nobody to tell: no hop through the queue (it would cost every write a thread switch).
        guard !writes.watchers.publishScheduled, !writes.watchers.isEmpty else { return }
        writes.watchers.publishScheduled = true
        schedule { [self] in
            writes.watchers.publishScheduled = false
            let observers = Array(writes.watchers.observers.values)
            if !observers.isEmpty {
                let snapshot = pendingWrites.snapshot
                callbackQueue.async { for observer in observers { observer(snapshot) } }
            }
            releaseWaiters()
        }
    }

    /// Calls `waiter` once every write made so far has been answered by the server (later writes
    /// do not hold it back).
    func whenPendingWritesDrain(_ waiter: @escaping @Sendable () -> Void) {
        writes.watchers.wait(upTo: writeIDs.next - 1, waiter)
        releaseWaiters()
    }

    private func releaseWaiters() {
        guard writes.watchers.hasWaiters else { return }
        let ready = writes.watchers.takeReady(oldestPending: pendingWrites.oldestID)
        guard !ready.isEmpty else { return }
        callbackQueue.async { for waiter in ready { waiter() } }
    }

    /// Sends a dead letter again as a new write at the end of the queue.
    func retryDeadLetter(_ id: Int, completion: Completion?) {
        guard let letter = pendingWrites.takeDeadLetter(id) else {
            complete(completion, error: DatabaseError(code: .notFound, message: "no dead letter with id \(id)"))
            return
        }
        switch letter.kind {
        case .set, .remove:
            set(letter.path, json: letter.data, completion: completion)
        case .update:
            update(
                letter.path, values: (letter.data.objectValue ?? [:]).map { ($0.key.string, $0.value) },
                completion: completion
            )
        case .transaction:
            complete(
                completion,
                error: DatabaseError(
                    code: .notSupported, message: "a transaction cannot be retried from the dead letters"))
        }
    }
}
