import Dashboard
import Synchronization

/// Actions from other threads (the simulation's events, a view's answer), waiting for the
/// dashboard's loop.
public final class ActionInbox: Sendable {
    private let actions = Mutex<[DashboardAction]>([])

    /// Makes an empty inbox.
    public init() {}

    /// Adds an action.
    public func append(_ action: DashboardAction) {
        actions.withLock { $0.append(action) }
    }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { actions.withLock { $0.isEmpty } }

    /// Takes every waiting action, oldest first.
    public func takeAll() -> [DashboardAction] {
        actions.withLock { actions in
            defer { actions = [] }
            return actions
        }
    }
}
