import ArgumentParser
import ChildProcesses
import Foundation

/// A `presencetop serve --memory` child process on a free loopback port, stopped when the
/// benchmark ends however it ends.
enum ServeProcess {
    /// Starts one, named `name` in the report's cleanup, and waits until it says it listens; its
    /// port.
    static func start(_ report: BenchReport, named name: String) async throws -> Int {
        let server = try await ChildProcess(
            try BenchSupport.presencetop(), ["serve", "--memory", "--port", "0", "--log-level", "warning"])
        report.onExit(name) { server.signal(SIGTERM) }
        guard let port = await server.listeningPort() else {
            throw ValidationError("\(name) exited before it listened: \(server.standardError.suffix(500))")
        }
        return port
    }
}
