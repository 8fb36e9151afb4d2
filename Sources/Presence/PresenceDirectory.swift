import RTDBClient
import Synchronization

/// Everyone's presence, as one client sees it: a live list of ``UserPresence`` built from the
/// `users` tree that ``PresenceSession``s (or the documentation's sample) write.
public final class PresenceDirectory: Sendable {
    private let database: Database
    private let root: String
    private let layout: PresenceLayout
    private let state = Mutex(State())

    private struct State {
        var handle: DatabaseHandle?
        var users: [UserPresence] = []
        var updates = 0
    }

    /// Makes a directory of the users under `root` (default `users`), read in `layout`.
    public init(database: Database, root: String = "users", layout: PresenceLayout = .documented) {
        self.database = database
        self.root = root
        self.layout = layout
    }

    /// The users as last seen, sorted by id.
    public var users: [UserPresence] { state.withLock { $0.users } }

    /// How many times the list has changed.
    public var updates: Int { state.withLock { $0.updates } }

    /// Starts listening; `onChange` gets the whole list after every change.
    public func start(onChange: @escaping @Sendable ([UserPresence]) -> Void = { _ in }) {
        let handle = database.reference(withPath: root).observe(.value) { [self] snapshot in
            let users = layout.users(from: snapshot.node.plainJSON())
            state.withLock { state in
                state.users = users
                state.updates += 1
            }
            onChange(users)
        }
        state.withLock { $0.handle = handle }
    }

    /// Stops listening.
    public func stop() {
        guard
            let handle = state.withLock({ state in
                defer { state.handle = nil }
                return state.handle
            })
        else { return }
        database.reference(withPath: root).removeObserver(withHandle: handle)
    }
}
