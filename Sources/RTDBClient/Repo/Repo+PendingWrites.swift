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
            if pendingWrites.isEmpty, !pendingWaiters.isEmpty {
                let waiters = pendingWaiters
                pendingWaiters = []
                callbackQueue.async { for waiter in waiters { waiter() } }
            }
        }
    }

    /// Calls `waiter` once every write made so far has been answered by the server.
    func whenPendingWritesDrain(_ waiter: @escaping @Sendable () -> Void) {
        if pendingWrites.isEmpty {
            callbackQueue.async { waiter() }
        } else {
            pendingWaiters.append(waiter)
        }
    }

    /// Sends a dead letter again as a new write at the end of the queue.
    func retryDeadLetter(_ id: Int, completion: Completion?) {
        guard let letter = pendingWrites.takeDeadLetter(id) else {
            complete(completion, status: "not_found", data: .string("no dead letter with id \(id)"))
            return
        }
        switch letter.kind {
        case .set, .remove:
            set(letter.path, json: letter.data, completion: completion)
        case .update:
            update(
                letter.path, values: (letter.data.objectValue ?? [:]).map { ($0.key, $0.value) }, completion: completion
            )
        case .transaction:
            complete(completion, status: "not_supported", data: "a transaction cannot be retried from the dead letters")
        }
    }
}
