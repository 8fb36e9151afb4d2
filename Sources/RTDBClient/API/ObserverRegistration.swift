import Dispatch
import RTDBCore

/// Identifies a listener, for `removeObserver(withHandle:)`.
public typealias DatabaseHandle = UInt

/// A listener registered with `observe`: its event type and callbacks.
final class ObserverRegistration: EventRegistration, Sendable {
    let handle: DatabaseHandle
    let eventType: DataEventType
    let database: Database
    let callback: @Sendable (DataSnapshot, String?) -> Void
    let cancelCallback: (@Sendable (any Error) -> Void)?

    init(
        handle: DatabaseHandle, eventType: DataEventType, database: Database,
        callback: @escaping @Sendable (DataSnapshot, String?) -> Void,
        cancelCallback: (@Sendable (any Error) -> Void)?
    ) {
        self.handle = handle
        self.eventType = eventType
        self.database = database
        self.callback = callback
        self.cancelCallback = cancelCallback
    }

    func respondsTo(_ type: EventType) -> Bool { type == eventType.engineType }

    var hasCancelCallback: Bool { cancelCallback != nil }

    /// The call that delivers `event` to this listener.
    func call(for event: SyncEvent) -> (@Sendable () -> Void)? {
        switch event {
        case .data(let data):
            let snapshot = DataSnapshot(
                ref: DatabaseReference(database: database, path: data.path), node: data.node,
                index: data.query.params.index)
            let previous = data.previousKey?.string
            let callback = callback
            return { callback(snapshot, previous) }
        case .cancel(_, let error, _):
            guard let cancelCallback else { return nil }
            return { cancelCallback(error) }
        }
    }
}
