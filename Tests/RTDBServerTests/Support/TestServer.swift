import Foundation
import Logging
import RTDBCore
import RTDBServer

/// A real `RTDBServer` on a loopback port chosen by the system, stopped with `stop()`.
final class TestServer: Sendable {
    let server: RTDBServer
    let port: Int
    private let task: Task<Void, any Error>

    static func start(
        dataDirectory: URL? = nil, heartbeatTimeout: Duration = .seconds(15),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: dataDirectory, defaultNamespace: "demo",
            heartbeatTimeout: heartbeatTimeout)
        configure(&configuration)
        var logger = Logger(label: "test.server")
        logger.logLevel = .critical
        let server = RTDBServer(configuration: configuration, logger: logger, clock: clock)
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

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var webSocketURL: String { "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo" }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds or `attempts` × 50 ms pass; the wait bounds a test, it is not
/// a timing assertion.
func eventually(attempts: Int = 200, _ condition: () async throws -> Bool) async throws -> Bool {
    for _ in 0..<attempts {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return false
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("presencetop-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
