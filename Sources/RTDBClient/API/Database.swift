import Dispatch
import Foundation
import Logging
import RTDBCore
import Synchronization

/// A Realtime Database: the entry point, shaped like FirebaseDatabase's `Database`.
///
/// ```swift
/// Database.configure(url: "http://127.0.0.1:9000?ns=demo")
/// let ref = Database.database().reference(withPath: "users/morgan")
/// ```
///
/// Callbacks run on ``callbackQueue`` (by default one serial queue per instance, not the main
/// queue: command-line and server programs often have no main run loop). Every method may be
/// called from any thread.
public final class Database: Sendable {
    /// The URL as given.
    public let url: String
    /// The WebSocket base URL (`ws://host:port` or `wss://host`).
    let socketBase: String
    /// The namespace.
    public let namespace: String
    /// Where callbacks run.
    public let callbackQueue: DispatchQueue
    let transport: any Transport
    /// The engine's time: its wall clock (stamps) and what its timers sleep on (the connect
    /// timeout, back-off, keepalive).
    public let time: TimeSource
    let confinement: EngineConfinement?
    /// Signalled after each change the engine makes visible: callbacks that ran (events,
    /// completions, observers), the connection's status, the write queue.
    ///
    /// What a test or a tool waits on instead of polling: note its generation, look, and if
    /// what is wanted is not there yet, wait for the next change (``ChangeSignal``).
    public let changes = ChangeSignal()
    let logger: Logger
    private let state = Mutex(State())
    private static let registry = Mutex(Registry())

    struct State {
        var repo: Repo?
        var closed = false
        /// What the app set before first use, which the engine is made with.
        var settings = DatabaseSettings()
        var nextHandle: DatabaseHandle = 1
        var registrations: [DatabaseHandle: (QuerySpec, ObserverRegistration)] = [:]
        var keptSynced: [String: DatabaseHandle] = [:]
    }

    private struct Registry {
        var defaultURL: String?
        var instances: [String: Database] = [:]
    }

    /// Makes an independent instance with its own connection (tests and simulations use many).
    ///
    /// - Parameters:
    ///   - url: `http://host:port?ns=NS`, `ws://…`, or `https://<ns>.firebaseio.com`.
    ///   - transport: How to reach the server (WebSockets by default).
    ///   - time: The local wall clock (a device's may be off) and what the engine's timers sleep
    ///     on (the connect timeout, back-off, keepalive); tests pass time they move by hand.
    ///   - callbackQueue: Where callbacks run.
    ///   - confinement: Keeps the engine on a queue the caller drives, with seeded randomness (a
    ///     simulation that replays exactly); callbacks then run there too unless `callbackQueue`
    ///     says otherwise.
    public init(
        url: String, transport: any Transport = WebSocketTransport(),
        time: TimeSource = .system, callbackQueue: DispatchQueue? = nil,
        logger: Logger = Logger(label: "presencetop.client"),
        confinement: EngineConfinement? = nil
    ) {
        let parsed = DatabaseURL(url)
        self.url = url
        self.socketBase = parsed.socketBase
        self.namespace = parsed.namespace
        self.transport = transport
        self.time = time
        self.confinement = confinement
        self.callbackQueue =
            callbackQueue ?? DispatchQueue(label: "presencetop.database.callbacks", target: confinement?.queue)
        self.logger = logger
    }

    /// Sets the URL of the default instance (before the first ``database()``).
    public static func configure(url: String) {
        registry.withLock { $0.defaultURL = url }
    }

    /// The default instance: the configured URL, else `FIREBASE_DATABASE_EMULATOR_HOST`, else
    /// `http://127.0.0.1:9000?ns=demo`.
    public static func database() -> Database {
        let url =
            registry.withLock { $0.defaultURL }
            ?? ProcessInfo.processInfo.environment["FIREBASE_DATABASE_EMULATOR_HOST"].map { "http://\($0)?ns=demo" }
            ?? "http://127.0.0.1:9000?ns=demo"
        return database(url: url)
    }

    /// The shared instance for a URL.
    public static func database(url: String) -> Database {
        registry.withLock { registry in
            if let existing = registry.instances[url] { return existing }
            let database = Database(url: url)
            registry.instances[url] = database
            return database
        }
    }

    /// The engine, made (and connected) on first use.
    var repo: Repo {
        let (repo, isNew) = state.withLock { state -> (Repo, Bool) in
            if let repo = state.repo { return (repo, false) }
            let settings = state.settings
            let repo = Repo(
                baseURL: socketBase, namespace: namespace, transport: transport, time: time,
                callbackQueue: callbackQueue, logger: logger, connects: !state.closed,
                persistence: settings.persistence(
                    in: persistenceFile(in: settings.persistenceDirectory, named: settings.persistenceFileName)),
                retryPolicy: settings.retryPolicy, maxPendingBytes: settings.maxPendingBytes,
                tokenProvider: settings.tokenProvider, confinement: confinement, changes: changes, database: self)
            state.repo = repo
            return (repo, true)
        }
        if isNew, state.withLock({ $0.settings.persistenceEnabled }) {
            // keepSynced flags saved by an earlier run hold again from the start: declared once
            // the file is open, without making this first call wait for it.
            repo.withRestoredKeepSynced { [weak self] queries in
                for query in queries { self?.setKeepSynced(query, true) }
            }
        }
        return repo
    }

    /// Whether the engine has been made (persistence settings are fixed from then on).
    var isStarted: Bool { state.withLock { $0.repo != nil } }

    func withState<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }

    /// A reference to the root.
    ///
    /// The first reference starts the engine, as FirebaseDatabase does: it connects, and with
    /// persistence writes queued by an earlier run go out even if the app never writes again.
    public func reference() -> DatabaseReference {
        _ = repo
        return DatabaseReference(database: self, path: .root)
    }

    /// A reference to a path (the first reference starts the engine, as ``reference()`` says).
    public func reference(withPath path: String) -> DatabaseReference {
        _ = repo
        return DatabaseReference(database: self, path: Path(path))
    }

    /// Disconnects and stays offline until ``goOnline()``.
    public func goOffline() {
        repo.interrupt()
    }

    /// Reconnects after ``goOffline()``.
    public func goOnline() {
        repo.resume()
    }

    /// Tries to connect now instead of waiting out the back-off, when waiting to retry (nothing
    /// otherwise): what a person asks for when they know the network is back.
    public func reconnectNow() {
        repo.reconnectNow()
    }

    /// Disconnects and releases the instance's connection.
    public func close() {
        // The repo stays (closed) so that late calls, from callbacks still queued for example,
        // find a closed engine instead of opening a new connection.
        let repo = state.withLock { state -> Repo? in
            defer {
                state.closed = true
                // Registrations hold references to this instance: dropped, it can be freed.
                state.registrations = [:]
                state.keptSynced = [:]
            }
            return state.closed ? nil : state.repo
        }
        guard let repo else { return }
        repo.close()
        Database.registry.withLock { registry in
            if registry.instances[url] === self { registry.instances[url] = nil }
        }
    }

    /// The connection's current state, round trip and clock-skew estimate.
    public var connectionStatus: ConnectionStatus {
        repo.publishedStatus()
    }

    // MARK: - Listener bookkeeping

    /// A fresh handle for an observer.
    func nextHandle() -> DatabaseHandle {
        state.withLock { state in
            defer { state.nextHandle += 1 }
            return state.nextHandle
        }
    }

    func register(_ query: QuerySpec, _ make: (DatabaseHandle) -> ObserverRegistration) -> DatabaseHandle {
        let registration = state.withLock { state -> ObserverRegistration in
            let handle = state.nextHandle
            state.nextHandle += 1
            let registration = make(handle)
            state.registrations[handle] = (query, registration)
            return registration
        }
        repo.addEventRegistration(registration, for: query)
        return registration.handle
    }

    func unregister(_ handle: DatabaseHandle) {
        guard let (query, registration) = state.withLock({ $0.registrations.removeValue(forKey: handle) }) else {
            return
        }
        repo.removeEventRegistrations([(query, registration)])
    }

    /// keepSynced: a listener with no callback keeps the location's data flowing.
    func setKeepSynced(_ query: QuerySpec, _ keep: Bool) {
        let key = query.description
        repo.setKeptSynced(query, keep)
        if keep {
            guard state.withLock({ $0.keptSynced[key] == nil }) else { return }
            let handle = register(query) { handle in
                ObserverRegistration(
                    handle: handle, eventType: .value, database: self, callback: { _, _ in }, cancelCallback: nil)
            }
            state.withLock { $0.keptSynced[key] = handle }
        } else if let handle = state.withLock({ $0.keptSynced.removeValue(forKey: key) }) {
            unregister(handle)
        }
    }

    func unregisterAll(at path: Path) {
        let removed = state.withLock { state -> [(QuerySpec, ObserverRegistration)] in
            let matching = state.registrations.filter { $0.value.0.path == path }
            for handle in matching.keys { state.registrations[handle] = nil }
            return Array(matching.values)
        }
        repo.removeEventRegistrations(removed)
    }
}
