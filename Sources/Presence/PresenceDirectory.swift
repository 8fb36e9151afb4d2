import RTDBClient
import RTDBCore
import Synchronization

/// Everyone's presence, as one client sees it: a live list of ``UserPresence`` built from the
/// `users` tree that ``PresenceSession``s (or the documentation's sample) write.
///
/// Each version of the tree is compared with the one before where they differ only (the engine's
/// trees share what an update left alone, see ``ChildrenMap/changes(from:)``), and only the users
/// whose nodes changed are read again: a change costs the same among a million users as among ten.
public final class PresenceDirectory: Sendable {
    private let database: Database
    private let root: String
    private let layout: PresenceLayout
    private let state = Mutex(State())

    private struct State {
        var handle: DatabaseHandle?
        var users = PresenceList()
        /// The tree the list was read from.
        var tree = ChildrenMap()
        var updates = 0
        /// Why the server refused the listen, if it did (the rules): nothing more will come.
        var refusal: String?
    }

    /// Makes a directory of the users under `root` (default `users`), read in `layout`.
    public init(database: Database, root: String = "users", layout: PresenceLayout = .documented) {
        self.database = database
        self.root = root
        self.layout = layout
    }

    /// The users as last seen, sorted by id.
    public var users: PresenceList { state.withLock { $0.users } }

    /// How many times the list has changed.
    public var updates: Int { state.withLock { $0.updates } }

    /// Why the server refused to list the users (its rules: `Permission denied`), if it did; the
    /// list then stays as it was and never changes again.
    public var refusal: String? { state.withLock { $0.refusal } }

    /// Starts listening; `onChange` gets the whole list after every change.
    public func start(onChange: @escaping @Sendable (PresenceList) -> Void = { _ in }) {
        let handle = database.reference(withPath: root).observe(.value) { [self] snapshot in
            // Events arrive one at a time on the callback queue: the lock only guards readers.
            let (previousTree, previousUsers) = state.withLock { ($0.tree, $0.users) }
            let tree = snapshot.node.children
            // A first list, or a new one (its text, after a reconnection), is read whole.
            let newText = tree.packedBase.map { $0 !== previousTree.packedBase } ?? false
            let users =
                previousTree.isEmpty || newText
                ? Self.users(in: tree, layout: layout)
                : Self.updated(previousUsers, with: tree.changedChildren(from: previousTree), layout: layout)
            state.withLock { state in
                (state.users, state.tree) = (users, tree)
                state.updates += 1
            }
            onChange(users)
        } withCancel: { [self] error in
            state.withLock { $0.refusal = "\(error)" }
        }
        state.withLock { $0.handle = handle }
    }

    /// Every user under `tree` (a first list: read in key order, with no list of changes made;
    /// one kept as its text is read from it, each user as they are asked for).
    static func users(in tree: ChildrenMap, layout: PresenceLayout) -> PresenceList {
        // A first list kept as its text is read from it as each user is asked for: no copy.
        if let list = PresenceList(reading: tree, layout: layout) { return list }
        var users: [UserPresence] = []
        users.reserveCapacity(tree.count)
        // A packed first list is read where it stands, with no node made for each user.
        tree.forEachChild { key, value in
            switch value {
            case .node(let node): users.append(layout.user(id: key.string, from: node))
            case .packed(let text): users.append(layout.user(id: key.string, from: text))
            }
        }
        return PresenceList(users)
    }

    /// `users` with the changed children read again.
    static func updated(
        _ users: PresenceList, with changes: [(key: ChildKey, node: Node?)], layout: PresenceLayout
    ) -> PresenceList {
        // A first load, or most users changed: one build is cheaper than a million updates.
        if changes.count > max(64, users.count / 4) {
            var all = users
            var fresh: [UserPresence] = []
            for change in changes {
                if let node = change.node {
                    fresh.append(layout.user(id: change.key.string, from: node))
                } else {
                    all = all.removing(id: change.key.string)
                }
            }
            if all.isEmpty { return PresenceList(fresh) }
            var merged: [UserPresence] = []
            merged.reserveCapacity(all.count + fresh.count)
            all.forEachUser { merged.append($0) }
            return PresenceList(merged + fresh)
        }
        var list = users
        for change in changes {
            if let node = change.node {
                list = list.updating(layout.user(id: change.key.string, from: node))
            } else {
                list = list.removing(id: change.key.string)
            }
        }
        return list
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
