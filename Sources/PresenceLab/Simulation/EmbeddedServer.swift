import Foundation
import Logging
import RTDBCore
import RTDBServer

/// An `RTDBServer` running in this process on a loopback port (0: a free one), for the dashboard,
/// the demo and the benchmarks.
public struct EmbeddedServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// The server, for its connection table.
    public let server: RTDBServer
    private let task: Task<Void, any Error>

    /// Why an embedded server did not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Starts a server and returns once it listens.
    ///
    /// - Parameters:
    ///   - dataDirectory: Where namespaces are stored; nil keeps them in memory.
    ///   - time: The server's wall clock and what its heartbeat and other timers sleep on.
    ///   - configure: Changes the rest of the configuration (heartbeat, say).
    public static func start(
        dataDirectory: URL?, port: Int = 0, logger: Logger? = nil, time: TimeSource = .system,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> EmbeddedServer {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: port, dataDirectory: dataDirectory)
        // The program that embeds it owns the process's signals.
        configuration.stopsOnSignals = false
        configure(&configuration)
        let logger =
            logger
            ?? {
                var quiet = Logger(label: "presencetop.embedded-server")
                quiet.logLevel = .critical
                return quiet
            }()
        let server = RTDBServer(configuration: configuration, logger: logger, time: time)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await server.run { _, port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            // It stopped before listening (the port is taken, say): its error says why.
            try await task.value
            throw StartError(description: "the embedded server stopped before it listened")
        }
        return EmbeddedServer(port: port, server: server, task: task)
    }

    /// Stops the server once acknowledged writes are on disk.
    public func stop() async {
        await server.shutDown()
        _ = try? await task.value
    }
}
