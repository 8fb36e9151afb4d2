import Dashboard
import Synchronization

/// Actions from other threads (the simulation's events), waiting for the dashboard's loop.
final class ActionInbox: Sendable {
    private let actions = Mutex<[DashboardAction]>([])

    /// Adds an action.
    func append(_ action: DashboardAction) {
        actions.withLock { $0.append(action) }
    }

    /// Whether nothing is waiting.
    var isEmpty: Bool { actions.withLock { $0.isEmpty } }

    /// Takes every waiting action, oldest first.
    func takeAll() -> [DashboardAction] {
        actions.withLock { actions in
            defer { actions = [] }
            return actions
        }
    }
}
