import Foundation
import Logging
import RTDBCore
import RTDBServer

/// A real `RTDBServer` on a system-chosen loopback port.
public final class TestServer: Sendable {
    /// The server.
    public let server: RTDBServer
    /// Its port.
    public let port: Int
    private let task: Task<Void, any Error>

    /// The heartbeat of a server whose timers are the wall clock, unless a test names one: long
    /// enough that no client is judged silent because the machine starved it.
    ///
    /// A session whose peer answers no ping for half the timeout is closed; under the full suite
    /// on two cores a test client's pong waited that long (7.5 s at the server's 15 s) and tests
    /// that never meant to test a heartbeat failed on "the server closed the connection" after
    /// 100-odd seconds. A test of the heartbeat moves the server's time by hand, where the
    /// server's own 15 s stays the default.
    public static let wallClockHeartbeat = Duration.seconds(600)

    /// Starts a server (in memory unless `dataDirectory` is given).
    ///
    /// - Parameters:
    ///   - heartbeatTimeout: The server's; by default 15 s (the server's own) on time a test
    ///     moves, ``wallClockHeartbeat`` on the machine's.
    ///   - time: The server's time (``TestTime/source`` for time the test moves).
    public static func start(
        dataDirectory: URL? = nil, heartbeatTimeout: Duration? = nil, time: TimeSource = .system,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, defaultNamespace: "demo",
            heartbeatTimeout: heartbeatTimeout ?? (time.clock is ContinuousClock ? wallClockHeartbeat : .seconds(15)))
        configure(&configuration)
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        let server = RTDBServer(configuration: configuration, logger: logger, time: time)
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            try await server.run { _, port in continuation.yield(port) }
        }
        var iterator = stream.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("server did not start") }
        return TestServer(server: server, port: port, task: task)
    }

    private init(server: RTDBServer, port: Int, task: Task<Void, any Error>) {
        self.server = server
        self.port = port
        self.task = task
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The protocol v5 URL of namespace `demo`.
    public var webSocketURL: String { "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo" }

    /// Stops the server as SIGTERM would and waits until it has stopped.
    ///
    /// No bound here: the server closes its sessions and streams itself and bounds its own stop.
    public func stop() async {
        await server.shutDown()
        _ = try? await task.value
    }
}

/// A failed test step.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Makes a failure.
    public init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds or `attempts` × 50 ms pass (20 s by default: CI machines are shared); the wait bounds a test, it is not
/// a timing assertion.
public func eventually(attempts: Int = 400, _ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<attempts {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// A fresh directory under the system temporary directory.
public func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("presencetop-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Returns once `condition` holds, checked now and after each change any of `signals` reports: a
/// barrier, not a poll, with no clock of its own (a hang is named by the test's time limit or the
/// suite's deadline); false when the task is cancelled first.
public func until(_ signals: ChangeSignal..., condition: () async throws -> Bool) async throws -> Bool {
    try await until(signals, condition)
}

/// Returns once `condition` holds, checked now and after each change any of `signals` reports
/// (the variadic form's array form, for one signal per instance of many).
public func until(_ signals: [ChangeSignal], _ condition: () async throws -> Bool) async throws -> Bool {
    while true {
        let seen = signals.map(\.generation)
        if try await condition() { return true }
        guard !Task.isCancelled else { return false }
        await withTaskGroup(of: Void.self) { group in
            for (signal, generation) in zip(signals, seen) {
                group.addTask { await signal.changed(after: generation) }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
