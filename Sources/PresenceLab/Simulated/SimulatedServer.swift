import Logging
import Presence
import RTDBCore
import RTDBRules
import RTDBServer
import Synchronization

/// A server in this process for ``SimulatedLink``s: a ``DatabaseEngine`` over a
/// ``SimulatedDisk``, on a ``TimeSource``'s clock; killed, its sessions are abandoned and its disk
/// keeps what it committed, and started again it adopts the onDisconnect writes left.
///
/// A simulated chaos run's server has the presence rules and token expiry enforced; tests give
/// it the rules they need.
public final class SimulatedServer: ChaosServerControl {
    private let disk = SimulatedDisk()
    private let time: TimeSource
    private let logger: Logger
    private let rules: SecurityRules
    private let credentials: CredentialPolicy
    private let state = Mutex(State())

    private struct State {
        var engine: DatabaseEngine?
        var starting = false
        var sessions = 0
        var connections: [SimulatedConnection] = []
    }

    /// A server on `time`, not yet started, enforcing `rules` and `credentials`.
    public init(
        time: TimeSource, rules: SecurityRules = PresenceRules.rules,
        credentials: CredentialPolicy = CredentialPolicy(secret: nil, enforcesExpiry: true),
        logger: Logger = Logger(label: "presencetop.simulated", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.time = time
        self.rules = rules
        self.credentials = credentials
        self.logger = logger
    }

    /// Whether it runs now.
    public var isRunning: Bool { state.withLock { $0.engine != nil } }

    /// The namespace while it runs (its connections, metrics and changes), nil while it is down.
    public var engine: DatabaseEngine? { state.withLock { $0.engine } }

    /// Starts it (again), over what its disk kept.
    public func start() async throws {
        guard
            state.withLock({ state in
                defer { state.starting = true }
                return state.engine == nil && !state.starting
            })
        else { return }
        let engine = try await DatabaseEngine.open(
            namespace: "chaos", store: disk.store(), time: time, connections: ConnectionTable(), logger: logger,
            credentials: credentials, rules: rules)
        state.withLock {
            $0.engine = engine
            $0.starting = false
        }
    }

    /// Kills it, with no goodbye to anyone: its sessions are abandoned, its disk keeps what it
    /// committed, and its late commits reach nothing.
    public func kill() async throws {
        disk.retire()
        let connections = state.withLock { state -> [SimulatedConnection] in
            state.engine = nil
            defer { state.connections = [] }
            return state.connections
        }
        for connection in connections { connection.serverDied() }
    }

    /// Makes its disk full (true) or gives it room again (false).
    public func setDiskFull(_ full: Bool) { disk.setFull(full) }

    /// Stops it cleanly: its sessions end and their onDisconnect writes run.
    public func stop() async {
        let engine = state.withLock { state -> DatabaseEngine? in
            defer { state.engine = nil }
            return state.engine
        }
        await engine?.close()
    }

    /// What it holds at `path`, as the admin reads it; nil while it is down.
    public func read(_ path: String) async -> JSONValue? {
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
