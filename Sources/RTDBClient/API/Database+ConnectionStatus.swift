import RTDBCore

extension Database {
    /// Calls `observer` on the callback queue with every change of the connection's status (phase,
    /// round trip, clock skew), starting with the current one.
    @discardableResult
    public func observeConnectionStatus(_ observer: @escaping @Sendable (ConnectionStatus) -> Void) -> DatabaseHandle {
        addObserver(\.statusObservers, current: { $0.connection.status }, observer)
    }

    /// Stops a connection-status observer.
    public func removeConnectionStatusObserver(withHandle handle: DatabaseHandle) {
        removeObserver(\.statusObservers, handle)
    }

    /// Registers an observer kept in one of the repo's tables and tells it the current value.
    func addObserver<Value: Sendable>(
        _ table: ReferenceWritableKeyPath<Repo, [DatabaseHandle: @Sendable (Value) -> Void]>,
        current: @escaping @Sendable (Repo) -> Value, _ observer: @escaping @Sendable (Value) -> Void
    ) -> DatabaseHandle {
        let repo = repo
        let handle = nextHandle()
        nonisolated(unsafe) let table = table  // key paths are immutable values
        repo.queue.async {
            repo[keyPath: table][handle] = observer
            let value = current(repo)
            repo.callbackQueue.async { observer(value) }
        }
        return handle
    }

    /// Removes an observer from one of the repo's tables.
    func removeObserver<Value>(
        _ table: ReferenceWritableKeyPath<Repo, [DatabaseHandle: @Sendable (Value) -> Void]>, _ handle: DatabaseHandle
    ) {
        let repo = repo
        nonisolated(unsafe) let table = table  // key paths are immutable values
        repo.queue.async { repo[keyPath: table][handle] = nil }
    }
}
