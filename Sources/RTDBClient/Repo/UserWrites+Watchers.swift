import RTDBCore

/// Who watches the queue, and the dead letters sent again.
extension UserWrites {
    /// The queue changed: observers hear about it once per turn of the queue, however many
    /// writes changed in it.
    func changed() {
        changes.signal()
        // Nobody to tell: no hop through the queue (it would cost every write a thread switch).
        guard !watchers.publishScheduled, !watchers.isEmpty else { return }
        watchers.publishScheduled = true
        let host = host
        host.schedule { [self] in
            watchers.publishScheduled = false
            let observers = Array(watchers.observers.values)
            if !observers.isEmpty {
                let snapshot = queue.snapshot
                self.host.callbackQueue.async { for observer in observers { observer(snapshot) } }
            }
            releaseWaiters()
        }
    }

    /// Calls `waiter` once every write made so far has been answered by the server (later writes
    /// do not hold it back).
    func whenDrained(_ waiter: @escaping @Sendable () -> Void) {
        watchers.wait(upTo: ids.next - 1, waiter)
        releaseWaiters()
    }

    private func releaseWaiters() {
        guard watchers.hasWaiters else { return }
        let ready = watchers.takeReady(oldestPending: queue.oldestID)
        guard !ready.isEmpty else { return }
        host.callbackQueue.async { for waiter in ready { waiter() } }
    }

    /// Sends a dead letter again as a new write at the end of the queue.
    func retryDeadLetter(_ id: Int, completion: Completion?) {
        guard let letter = queue.takeDeadLetter(id) else {
            host.complete(completion, error: DatabaseError(code: .notFound, message: "no dead letter with id \(id)"))
            return
        }
        switch letter.kind {
        case .set, .remove:
            set(letter.path, json: letter.data, completion: completion)
        case .update:
            update(
                letter.path, children: (letter.data.objectValue ?? [:]).map { ($0.key.string, $0.value) },
                completion: completion)
        case .transaction:
            host.complete(
                completion,
                error: DatabaseError(
                    code: .notSupported, message: "a transaction cannot be retried from the dead letters"))
        }
    }

    /// Lets go of the watchers (the engine shuts down): the waiters are released, as nothing more
    /// will be answered, and the queue is one in memory again.
    func shutDown() {
        for waiter in watchers.takeAll() { host.callbackQueue.async(execute: waiter) }
        queue = PendingWriteQueue(store: nil, logger: host.logger)
        onDisconnect = LocalOnDisconnect()
    }
}
