import ArgumentParser
import Foundation

/// A `presencetop serve --memory` child process on a free loopback port, stopped when the
/// benchmark ends however it ends.
enum ServeProcess {
    /// Starts one, named `name` in the report's cleanup, and waits until it accepts connections;
    /// its port.
    static func start(_ report: BenchReport, named name: String) async throws -> Int {
        let port = try LoopbackPort.free()
        let server = Process()
        server.executableURL = try BenchSupport.presencetop()
        server.arguments = ["serve", "--memory", "--port", "\(port)"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        report.onExit(name) {
            guard server.isRunning else { return }
            server.terminate()
            server.waitUntilExit()
        }
        while !LoopbackPort.accepts(port) {
            guard server.isRunning else { throw ValidationError("\(name) exited before it answered") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return port
    }
}
