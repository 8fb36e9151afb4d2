import ServiceLifecycle
import Synchronization

/// Live sessions by id, so that a reconnecting client's `ls=` can end its previous session, and
/// so that a stopping server ends them all.
///
/// As a service of the server, it waits for the server to stop, then closes every session (a
/// close frame after what was queued, then its onDisconnect) instead of waiting for the clients
/// to go, and returns once all have ended (a session lives in its channel, not in a task the
/// HTTP server would wait for); a session that opens after that is closed at once. One watcher
/// for all sessions: a session costs no shutdown handler of its own.
final class SessionDirectory: Service, Sendable {
    private struct State {
        var outlets: [String: Outlet] = [:]
        var stopping = false
        /// Waiting for the last session to end, once stopping.
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Adds a session, or closes it at once if the server is stopping.
    func insert(_ outlet: Outlet, for sessionID: String) {
        let stopping = state.withLock { state in
            state.outlets[sessionID] = outlet
            return state.stopping
        }
        if stopping { outlet.send(.close) }
    }

    /// The session with this id, if it is live.
    func outlet(for sessionID: String) -> Outlet? {
        state.withLock { $0.outlets[sessionID] }
    }

    /// Removes a session that ended (unless the id has been taken by a newer one).
    func remove(_ sessionID: String, outlet: Outlet) {
        let drained = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.outlets[sessionID] === outlet { state.outlets[sessionID] = nil }
            guard state.outlets.isEmpty else { return [] }
            defer { state.drained = [] }
            return state.drained
        }
        for waiter in drained { waiter.resume() }
    }

    /// Waits for the server to stop (or the task to be cancelled), then closes every session and
    /// waits for them to end (a peer that does not answer the close is cut off after
    /// ``FrameWriter/closeTimeout``; the server's stop is bounded as a whole).
    func run() async {
        try? await gracefulShutdown()
        let outlets = state.withLock { state in
            state.stopping = true
            return Array(state.outlets.values)
        }
        for outlet in outlets { outlet.send(.close) }
        await withCheckedContinuation { waiter in
            let empty = state.withLock { state in
                if state.outlets.isEmpty { return true }
                state.drained.append(waiter)
                return false
            }
            if empty { waiter.resume() }
        }
    }
}
