import RTDBCore

extension DatabaseReference {
    /// Writes `value` here when this client disconnects, however that happens.
    public func onDisconnectSetValue(_ value: Any?) { onDisconnectSetValue(value, withCompletionBlock: nil) }

    /// Like ``onDisconnectSetValue(_:)``; `block` runs once the server has registered it.
    public func onDisconnectSetValue(
        _ value: Any?, withCompletionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)?
    ) {
        onDisconnectSetValue(value, andPriority: nil, withCompletionBlock: block)
    }

    /// Writes `value` with a priority when this client disconnects.
    public func onDisconnectSetValue(
        _ value: Any?, andPriority priority: Any?,
        withCompletionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)? = nil
    ) {
        let ref = self
        database.repo.onDisconnectSet(path, value: value, priority: priority) { error in block?(error, ref) }
    }

    /// Updates children here when this client disconnects.
    public func onDisconnectUpdateChildValues(_ values: [AnyHashable: Any]) {
        onDisconnectUpdateChildValues(values, withCompletionBlock: nil)
    }

    /// Like ``onDisconnectUpdateChildValues(_:)``; `block` runs once the server has registered it.
    public func onDisconnectUpdateChildValues(
        _ values: [AnyHashable: Any], withCompletionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)?
    ) {
        let ref = self
        database.repo.onDisconnectUpdate(path, values: DatabaseReference.stringKeyed(values)) { error in
            block?(error, ref)
        }
    }

    /// Removes the data here when this client disconnects.
    public func onDisconnectRemoveValue() { onDisconnectSetValue(nil, withCompletionBlock: nil) }

    /// Like ``onDisconnectRemoveValue()``; `block` runs once the server has registered it.
    public func onDisconnectRemoveValue(
        completionBlock block: @escaping @Sendable ((any Error)?, DatabaseReference) -> Void
    ) {
        onDisconnectSetValue(nil, withCompletionBlock: block)
    }

    /// Cancels every onDisconnect operation at and below this location.
    public func cancelDisconnectOperations() { cancelDisconnectOperations(completionBlock: nil) }

    /// Like ``cancelDisconnectOperations()``; `block` runs once the server has cancelled them.
    public func cancelDisconnectOperations(
        completionBlock block: (@Sendable ((any Error)?, DatabaseReference) -> Void)?
    ) {
        let ref = self
        database.repo.onDisconnectCancel(path) { error in block?(error, ref) }
    }
}
