import Foundation
import Logging
import RTDBCore

/// The server's namespaces, each opened on first use.
public actor NamespaceRegistry {
    private let configuration: ServerConfiguration
    private let connections: ConnectionTable
    private let clock: @Sendable () -> Int64
    private let timers: any Clock<Duration>
    private let logger: Logger
    private var engines: [String: Task<DatabaseEngine, any Error>] = [:]
    private var isClosed = false

    /// Makes a registry.
    ///
    /// - Parameter timers: What the namespaces' timers (credential expiry) sleep on.
    public init(
        configuration: ServerConfiguration, connections: ConnectionTable, clock: @escaping @Sendable () -> Int64,
        timers: any Clock<Duration> = ContinuousClock(), logger: Logger
    ) {
        self.configuration = configuration
        self.connections = connections
        self.clock = clock
        self.timers = timers
        self.logger = logger
    }

    /// The engine of a namespace, opening its store if needed.
    ///
    /// - Throws: ``NamespaceError`` for an invalid name or a closed server; store errors.
    public func engine(for namespace: String) async throws -> DatabaseEngine {
        guard ServerConfiguration.isValidNamespace(namespace) else { throw NamespaceError.invalidName(namespace) }
        guard !isClosed else { throw NamespaceError.shuttingDown }
        if let task = engines[namespace] { return try await task.value }
        let configuration = configuration
        let connections = connections
        let clock = clock
        let timers = timers
        let logger = logger
        let task = Task {
            let store: any DurableStore
            if let directory = configuration.dataDirectory {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                store = try SQLiteStore(path: directory.appendingPathComponent("\(namespace).sqlite").path)
            } else {
                store = MemoryStore()
            }
            return try await DatabaseEngine.open(
                namespace: namespace, store: store, clock: clock, connections: connections, logger: logger,
                checkpointInterval: configuration.checkpointInterval,
                credentials: configuration.credentialPolicy, rules: configuration.rules, timers: timers)
        }
        engines[namespace] = task
        do {
            return try await task.value
        } catch {
            engines[namespace] = nil
            throw error
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

    /// A message naming the problem.
    public var description: String {
        switch self {
        case .invalidName(let name):
            return "invalid namespace '\(name)': use 1-63 lowercase letters, digits or hyphens"
        case .shuttingDown:
            return "the server is shutting down"
        }
    }
}
