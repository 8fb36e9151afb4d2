import RTDBCore

extension Database {
    /// Calls `observer` on the callback queue with every change of the connection's status (phase,
    /// round trip, clock skew), starting with the current one.
    @discardableResult
    public func observeConnectionStatus(_ observer: @escaping @Sendable (ConnectionStatus) -> Void) -> DatabaseHandle {
        let handle = nextHandle()
        repo.addStatusObserver(handle: handle, observer)
        return handle
    }

    /// Stops a connection-status observer.
    public func removeConnectionStatusObserver(withHandle handle: DatabaseHandle) {
        repo.removeStatusObserver(handle: handle)
    }
}
