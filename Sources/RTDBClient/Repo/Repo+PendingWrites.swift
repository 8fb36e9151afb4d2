import RTDBCore

extension Repo {
    /// The queue changed: observers hear about it once per turn of the queue, however many
    /// writes changed in it.
    func pendingWritesChanged() {
        // Nobody to tell: no hop through the queue (it would cost every write a thread switch).
        guard !pendingPublishScheduled, !pendingObservers.isEmpty || !pendingWaiters.isEmpty else { return }
        pendingPublishScheduled = true
        queue.async { [self] in
            pendingPublishScheduled = false
            let observers = Array(pendingObservers.values)
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
        pendingWaiters.append((nextWriteID - 1, waiter))
        releaseWaiters()
    }

    private func releaseWaiters() {
        guard !pendingWaiters.isEmpty else { return }
        let oldest = pendingWrites.oldestID ?? .max
        let ready = pendingWaiters.filter { $0.upTo < oldest }
        guard !ready.isEmpty else { return }
        pendingWaiters.removeAll { $0.upTo < oldest }
        callbackQueue.async { for entry in ready { entry.waiter() } }
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
