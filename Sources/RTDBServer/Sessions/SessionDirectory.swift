import Synchronization

/// Live sessions by id, so that a reconnecting client's `ls=` can end its previous session.
final class SessionDirectory: Sendable {
    private let outlets = Mutex<[String: Outlet]>([:])

    func insert(_ outlet: Outlet, for sessionID: String) {
        outlets.withLock { $0[sessionID] = outlet }
    }

    func outlet(for sessionID: String) -> Outlet? {
        outlets.withLock { $0[sessionID] }
    }

    func remove(_ sessionID: String, outlet: Outlet) {
        outlets.withLock { table in
            if table[sessionID] === outlet { table[sessionID] = nil }
        }
    }
}
