import Logging
import Presence
import RTDBCore
import RTDBServer
import Synchronization

/// The server of a simulated run: a ``DatabaseEngine`` with the presence rules and token expiry
/// enforced, over a ``SimulatedDisk``, on the run's clock; killed, its sessions are abandoned and
/// its disk keeps what it committed, and started again it adopts the onDisconnect writes left.
final class SimulatedServer: ChaosServerControl {
    private let disk = SimulatedDisk()
    private let time: TimeSource
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var engine: DatabaseEngine?
        var starting = false
        var sessions = 0
        var connections: [SimulatedConnection] = []
    }

    init(time: TimeSource, logger: Logger) {
        self.time = time
        self.logger = logger
    }

    var isRunning: Bool { state.withLock { $0.engine != nil } }

    func start() async throws {
        guard
            state.withLock({ state in
                defer { state.starting = true }
                return state.engine == nil && !state.starting
            })
        else { return }
        let engine = try await DatabaseEngine.open(
            namespace: "chaos", store: disk.store(), time: time, connections: ConnectionTable(), logger: logger,
            credentials: CredentialPolicy(secret: nil, enforcesExpiry: true), rules: PresenceRules.rules)
        state.withLock {
            $0.engine = engine
            $0.starting = false
        }
    }

    func kill() async throws {
        disk.retire()
        let connections = state.withLock { state -> [SimulatedConnection] in
            state.engine = nil
            defer { state.connections = [] }
            return state.connections
        }
        for connection in connections { connection.serverDied() }
    }

    func setDiskFull(_ full: Bool) { disk.setFull(full) }

    func stop() async {
        let engine = state.withLock { state -> DatabaseEngine? in
            defer { state.engine = nil }
            return state.engine
        }
        await engine?.close()
    }

    func read(_ path: String) async -> JSONValue? {
        guard let engine = state.withLock({ $0.engine }) else { return nil }
        return await engine.currentRoot.child(at: Path(path)).exportJSON
    }

    /// A new session for a connection that reached the server, or nil when it is down.
    func accept(
        deliver: @escaping @Sendable (String) -> Void, ended: @escaping @Sendable (String) -> Void,
        connection: SimulatedConnection
    ) -> InProcessSession? {
        guard
            let (engine, number) = state.withLock({ state -> (DatabaseEngine, Int)? in
                guard let engine = state.engine else { return nil }
                state.sessions += 1
                state.connections.removeAll { $0.isOver }
                state.connections.append(connection)
                return (engine, state.sessions)
            })
        else { return nil }
        return InProcessSession(
            engine: engine, sessionID: "session-\(number)", time: time, deliver: deliver, ended: ended)
    }
}
