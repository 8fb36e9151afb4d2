import Foundation
import Logging
import RTDBCore
import Synchronization

/// The server's namespaces, each opened on first use and closed again when idle and the least
/// recently used of more than ``ServerConfiguration/maxOpenNamespaces``.
///
/// Whoever uses a namespace holds a lease on it (``lease(_:)``, ``release(_:)``): a WebSocket
/// session for its lifetime, a REST request for its duration. Only a namespace with no lease, no
/// session, no listen or stream, nothing waiting for the disk and the rules it opened with is
/// closed. A namespace nobody wrote to has no file (``DeferredSQLiteStore``), so a request the
/// rules refuse creates nothing on disk.
public actor NamespaceRegistry {
    private let configuration: ServerConfiguration
    private let connections: ConnectionTable
    private let time: TimeSource
    private let logger: Logger
    private let metrics: ServerMetrics
    private var engines: [String: Task<DatabaseEngine, any Error>] = [:]
    /// Namespaces being closed, which must finish before they open again.
    private var closing: [String: Task<Void, Never>] = [:]
    /// When each namespace was last leased, as a counter.
    private var lastUse: [String: UInt64] = [:]
    private var useCounter: UInt64 = 0
    /// Leases by namespace; a lock rather than the actor so that ``release(_:)`` need not wait.
    private let leases = Mutex<[String: Int]>([:])
    private var isClosed = false
    /// Whether the server has begun to stop (``beginStopping()``); read from any thread.
    nonisolated let stopping = Atomic<Bool>(false)

    /// Makes a registry.
    ///
    /// - Parameter time: The namespaces' wall clock and what their timers (credential expiry,
    ///   orphan grace) sleep on.
    public init(
        configuration: ServerConfiguration, connections: ConnectionTable, time: TimeSource = .system, logger: Logger,
        metrics: ServerMetrics = ServerMetrics()
    ) {
        self.metrics = metrics
        self.configuration = configuration
        self.connections = connections
        self.time = time
        self.logger = logger
    }

    /// The names of the namespaces open now.
    public var openNamespaces: [String] { engines.keys.sorted() }

    /// The engine of a namespace, opened if needed, leased until ``release(_:)``.
    ///
    /// - Throws: ``NamespaceError`` for an invalid name, a closed server, or a namespace that
    ///   cannot be opened now (every open one busy at the limit, or its files cannot be opened).
    public func lease(_ namespace: String) async throws -> DatabaseEngine {
        guard ServerConfiguration.isValidNamespace(namespace) else { throw NamespaceError.invalidName(namespace) }
        guard !isClosed else { throw NamespaceError.shuttingDown }
        // Counted before any suspension, so that no eviction closes it meanwhile.
        leases.withLock { $0[namespace, default: 0] += 1 }
        do {
            let engine = try await open(namespace)
            useCounter += 1
            lastUse[namespace] = useCounter
            return engine
        } catch {
            release(namespace)
            throw error
        }
    }

    /// Ends a lease from ``lease(_:)``.
    public nonisolated func release(_ namespace: String) {
        leases.withLock { leases in
            let remaining = (leases[namespace] ?? 1) - 1
            leases[namespace] = remaining > 0 ? remaining : nil
        }
    }

    private func leaseCount(_ namespace: String) -> Int { leases.withLock { $0[namespace] ?? 0 } }

    private func open(_ namespace: String) async throws -> DatabaseEngine {
        if let closing = closing[namespace] { await closing.value }
        if let task = engines[namespace] { return try await task.value }
        if engines.count >= configuration.maxOpenNamespaces, !(await evictOne()) {
            if let task = engines[namespace] { return try await task.value }
            throw NamespaceError.unavailable(
                namespace,
                reason:
                    "\(engines.count) namespaces are open and in use (--max-open-namespaces \(configuration.maxOpenNamespaces))"
            )
        }
        do {
            return try await start(namespace)
        } catch let error as NamespaceError {
            throw error
        } catch {
            // Most often out of file descriptors: close an idle namespace and try once more.
            logger.warning("namespace \(namespace) could not be opened: \(error)")
            guard await evictOne() else { throw NamespaceError.unavailable(namespace, reason: "\(error)") }
            do {
                return try await start(namespace)
            } catch {
                throw NamespaceError.unavailable(namespace, reason: "\(error)")
            }
        }
    }

    private func start(_ namespace: String) async throws -> DatabaseEngine {
        if let task = engines[namespace] { return try await task.value }
        let configuration = configuration
        let connections = connections
        let time = time
        let logger = logger
        let metrics = metrics
        let task = Task {
            let store: any DurableStore
            if let directory = configuration.dataDirectory {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                store = try DeferredSQLiteStore(path: directory.appendingPathComponent("\(namespace).sqlite").path)
            } else {
                store = MemoryStore()
            }
            return try await DatabaseEngine.open(
                namespace: namespace, store: store, time: time, connections: connections, logger: logger,
                checkpointInterval: configuration.checkpointInterval,
                credentials: configuration.credentialPolicy, rules: configuration.rules,
                orphanGrace: configuration.heartbeatTimeout, limits: configuration.limits, metrics: metrics)
        }
        engines[namespace] = task
        do {
            return try await task.value
        } catch {
            engines[namespace] = nil
            throw error
        }
    }

    /// Opens every stored namespace that holds onDisconnect writes of sessions the server had when
    /// it stopped, so that they run (``DatabaseEngine/open(namespace:store:time:connections:logger:checkpointInterval:credentials:rules:orphanGrace:limits:metrics:)``)
    /// even if nobody uses the namespace again.
    ///
    /// - Returns: The namespaces opened.
    @discardableResult
    public func resumeOrphanedSessions() async -> [String] {
        guard let directory = configuration.dataDirectory,
            let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        var opened: [String] = []
        for file in files.sorted() where file.hasSuffix(".sqlite") {
            let namespace = String(file.dropLast(".sqlite".count))
            guard ServerConfiguration.isValidNamespace(namespace), engines[namespace] == nil else { continue }
            do {
                let path = directory.appendingPathComponent(file).path
                guard try SQLiteStore.holdsOnDisconnectWrites(path: path) else { continue }
                _ = try await lease(namespace)
                release(namespace)
                opened.append(namespace)
            } catch {
                logger.error("namespace \(namespace) holds onDisconnect writes but cannot be opened: \(error)")
            }
        }
        return opened
    }

    /// Closes the least recently used namespace that is idle; false when none is.
    ///
    /// A namespace kept only in memory is never closed: its data would go with it.
    private func evictOne() async -> Bool {
        guard configuration.dataDirectory != nil else { return false }
        let candidates = engines.keys.filter { leaseCount($0) == 0 }.sorted {
            lastUse[$0, default: 0] < lastUse[$1, default: 0]
        }
        for namespace in candidates {
            guard let task = engines[namespace], let engine = try? await task.value else { continue }
            let idle = await engine.isIdle
            // Checked again after the suspensions: a lease taken meanwhile keeps it open.
            guard idle, leaseCount(namespace) == 0, engines[namespace] != nil else { continue }
            engines[namespace] = nil
            lastUse[namespace] = nil
            let closed = Task { await engine.close() }
            closing[namespace] = closed
            await closed.value
            closing[namespace] = nil
            logger.info("namespace \(namespace) closed: idle, and \(configuration.maxOpenNamespaces) may be open")
            return true
        }
        return false
    }

    /// Why the server is not ready for writes, one reason each (it is stopping; a namespace's
    /// store refuses writes); empty when it is.
    public func readinessProblems() async -> [String] {
        if stopping.load(ordering: .relaxed) || isClosed { return ["the server is stopping"] }
        var problems: [String] = []
        for name in engines.keys.sorted() {
            guard let engine = try? await engines[name]?.value else { continue }
            if let problem = await engine.storeProblem { problems.append("namespace \(name): \(problem)") }
        }
        return problems
    }

    /// The server has begun to stop: it is no longer ready (``readinessProblems()``).
    public func beginStopping() { stopping.store(true, ordering: .relaxed) }

    /// The server is stopping: namespaces whose disk fails or hangs stop waiting for it, all at
    /// once.
    public func stopWaitingForFailingDisks() async {
        await withTaskGroup(of: Void.self) { group in
            for task in engines.values {
                group.addTask { if let engine = try? await task.value { await engine.stopWaitingForTheDisk() } }
            }
        }
    }

    /// Flushes and closes every namespace.
    public func close() async {
        isClosed = true
        for task in engines.values {
            if let engine = try? await task.value { await engine.close() }
        }
        engines = [:]
    }
}

/// Why a namespace could not be used.
public enum NamespaceError: Error, CustomStringConvertible, Sendable {
    /// The name is not 1–63 lowercase letters, digits or hyphens.
    case invalidName(String)
    /// The server is stopping.
    case shuttingDown
    /// The namespace cannot be opened now (REST `503`); others go on being served.
    case unavailable(String, reason: String)

    /// A message naming the problem.
    public var description: String {
        switch self {
        case .invalidName(let name):
            return "invalid namespace '\(name)': use 1-63 lowercase letters, digits or hyphens"
        case .shuttingDown:
            return "the server is shutting down"
        case .unavailable(let name, let reason):
            return "namespace '\(name)' cannot be opened now: \(reason)"
        }
    }
}
