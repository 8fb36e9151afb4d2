import Foundation
import Logging
import RTDBClient
import RTDBCore
import RTDBRules
import RTDBServer
import Synchronization

/// A namespace in this process, reached by the client engine through ``InProcessSession``: the
/// real framing and the real engine, no socket, on the test's clock.
///
/// `Database(url:transport:)` with ``transport`` connects to it; any URL will do.
public final class InProcessServer: Sendable {
    /// The namespace.
    public let engine: DatabaseEngine
    private let time: TimeSource
    /// The closes clients asked for, each ending its session in the namespace.
    private let closes = Mutex<[Task<Void, Never>]>([])

    /// Opens a namespace over a memory store, on `time` (the engine's wall clock and timers).
    public static func start(time: TestTime, rules: SecurityRules = .open, authSecret: String? = nil) async throws
        -> InProcessServer
    {
        var logger = Logger(label: "in-process")
        logger.logLevel = .critical
        let engine = try await DatabaseEngine.open(
            namespace: "demo", store: MemoryStore(), time: time.source, connections: ConnectionTable(),
            logger: logger, credentials: CredentialPolicy(secret: authSecret, enforcesExpiry: authSecret != nil),
            rules: rules)
        return InProcessServer(engine: engine, time: time.source)
    }

    private init(engine: DatabaseEngine, time: TimeSource) {
        self.engine = engine
        self.time = time
    }

    /// A client of this namespace on `time` (its wall clock and its timers).
    public func client(_ time: TestTime) -> Database {
        Database(url: "http://in-process?ns=demo", transport: transport, time: time.source)
    }

    /// Closes the namespace.
    public func stop() async { await engine.close() }

    /// A transport whose every connection is a new session with this namespace.
    public var transport: any Transport { InProcessTransport(server: self) }

    /// Returns once every session a client closed so far has ended in the namespace (its
    /// onDisconnect writes have run): a barrier after `goOffline()` or `close()` and the client's
    /// ``Database/barrier()``.
    public func closesFinished() async {
        for close in closes.withLock({ $0 }) { await close.value }
    }

    /// Ends `session` for its client, after its opening.
    fileprivate func close(_ session: InProcessSession, after opening: Task<Void, Never>) {
        let task = Task {
            await opening.value
            await session.close(reason: "closed by the client")
        }
        closes.withLock { $0.append(task) }
    }

    fileprivate func connect(onEvent: @escaping @Sendable (TransportEvent) -> Void) -> InProcessSession {
        InProcessSession(
            engine: engine, time: time, deliver: { onEvent(.frame($0)) },
            ended: { reason in onEvent(.closed(reason: reason)) })
    }
}

/// The client side of ``InProcessServer``: each connection opens a session, says `.opened`, then
/// carries frames both ways.
struct InProcessTransport: Transport {
    let server: InProcessServer

    func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        let session = server.connect(onEvent: onEvent)
        let opening = Task {
            onEvent(.opened)
            await session.open()
        }
        return InProcessConnection(server: server, session: session, opening: opening)
    }
}

/// One connection to an ``InProcessServer``.
struct InProcessConnection: TransportConnection {
    let server: InProcessServer
    let session: InProcessSession
    let opening: Task<Void, Never>

    func send(_ frame: String) {
        // After the hello and the session's opening, in order: the client sends only once it has
        // the hello, which the opening delivers first.
        session.receive(frame)
    }

    func close() { server.close(session, after: opening) }
}

extension Database {
    /// A round trip through the server and back, then through the engine and its callbacks: once
    /// it returns, everything the server sent this client before answering has been delivered.
    ///
    /// A read of a path nobody listens to goes to the server after every request made before it
    /// and is answered after what the server sent before; then ``barrier()``.
    public func serverRoundTrip() async throws {
        _ = try await reference(withPath: "round-trips/\(UUID().uuidString)").getData()
        await barrier()
    }
}
