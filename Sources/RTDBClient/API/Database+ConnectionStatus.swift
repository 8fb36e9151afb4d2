extension Database {
    /// Calls `observer` on the callback queue with every change of the connection's status (phase,
    /// round trip, clock skew), starting with the current one.
    @discardableResult
    public func observeConnectionStatus(_ observer: @escaping @Sendable (ConnectionStatus) -> Void) -> DatabaseHandle {
        let repo = repo
        let handle = nextHandle()
        repo.queue.async {
            repo.statusObservers[handle] = observer
            let current = repo.connection.status
            repo.callbackQueue.async { observer(current) }
        }
        return handle
    }

    /// Stops a connection-status observer.
    public func removeConnectionStatusObserver(withHandle handle: DatabaseHandle) {
        let repo = repo
        repo.queue.async { repo.statusObservers[handle] = nil }
    }
}
