import Dispatch
import RTDBCore
import Synchronization

/// The connection's status as the app sees it: the last one published, which any thread may
/// read, and the observers told of each change on the callback queue.
///
/// One of the repo's parts: ``observers`` and ``publish(_:on:changes:)`` are used only on its
/// queue; ``current`` is read from any thread, under its own lock.
final class StatusBroadcast {
    /// Observers by handle.
    var observers: [DatabaseHandle: @Sendable (ConnectionStatus) -> Void] = [:]
    private let last = Mutex(ConnectionStatus(phase: .offline))

    /// The status last published (offline before the first).
    var current: ConnectionStatus { last.withLock { $0 } }

    /// Publishes `status`: readable at once from any thread, then given to each observer in
    /// turn on `callbackQueue`; `changes` is signalled after each of the two.
    func publish(_ status: ConnectionStatus, on callbackQueue: DispatchQueue, changes: ChangeSignal) {
        last.withLock { $0 = status }
        changes.signal()
        let observers = Array(observers.values)
        guard !observers.isEmpty else { return }
        callbackQueue.async {
            for observer in observers { observer(status) }
            changes.signal()
        }
    }
}
