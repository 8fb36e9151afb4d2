extension Database {
    /// The writes not yet acknowledged by the server, oldest first.
    public var pendingWrites: [PendingWrite] {
        repo.pendingWriteSnapshot()
    }

    /// The writes the server refused, with its reasons.
    public var deadLetters: [DeadLetter] {
        repo.deadLetterSnapshot()
    }

    /// Calls `observer` on the callback queue with the queue after it changes (at most once per
    /// batch of changes), starting with the current queue.
    @discardableResult
    public func observePendingWrites(_ observer: @escaping @Sendable ([PendingWrite]) -> Void) -> DatabaseHandle {
        let handle = nextHandle()
        repo.addPendingWritesObserver(handle: handle, observer)
        return handle
    }

    /// Stops a pending-writes observer.
    public func removePendingWritesObserver(withHandle handle: DatabaseHandle) {
        repo.removePendingWritesObserver(handle: handle)
    }

    /// Calls `completion` once every write made before this call has been answered by the server
    /// (acknowledged, or refused into the dead letters).
    public func waitForPendingWrites(_ completion: @escaping @Sendable () -> Void) {
        repo.waitForPendingWrites(completion)
    }

    /// Returns once every write made before this call has been answered by the server (or the
    /// database was closed: they will not be answered then).
    public func waitForPendingWrites() async {
        await withCheckedContinuation { continuation in waitForPendingWrites { continuation.resume() } }
    }

    /// Sends a dead letter again, as a new write at the end of the queue.
    public func retryDeadLetter(withID id: Int, completion: (@Sendable (DatabaseError?) -> Void)? = nil) {
        repo.resendDeadLetter(id, completion: completion)
    }

    /// Forgets a dead letter.
    public func discardDeadLetter(withID id: Int) {
        repo.discardDeadLetter(id)
    }
}
