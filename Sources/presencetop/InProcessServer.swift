import Foundation
import Logging
import RTDBServer

/// A quiet `RTDBServer` on a free loopback port, for the benchmarks.
struct InProcessServer {
    let port: Int
    private let task: Task<Void, any Error>

    static func start(dataDirectory: URL?, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws
        -> InProcessServer
    {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: dataDirectory)
        configure(&configuration)
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let server = RTDBServer(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await server.run { _, port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            // It stopped before listening (the port is taken, say): its error says why.
            try await task.value
            throw CocoaError(.featureUnsupported)
        }
        return InProcessServer(port: port, task: task)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
