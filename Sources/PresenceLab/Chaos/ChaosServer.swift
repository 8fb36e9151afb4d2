import ChildProcesses
import Foundation
import Synchronization

/// `presencetop serve` as a child process the chaos run can kill with SIGKILL and start again on
/// the same port and data.
public final class ChaosServer: Sendable {
    /// The command that starts a server (the presencetop executable, `serve`, its options);
    /// `--port` is added.
    let command: [String]
    private let state = Mutex<(process: ChildProcess?, port: Int)>((nil, 0))

    /// Makes a server that `start()` runs.
    public init(command: [String]) {
        self.command = command
    }

    /// The port it listens on (fixed by the first start).
    public var port: Int { state.withLock { $0.port } }

    /// Whether the process is running now.
    public var isRunning: Bool { state.withLock { $0.process?.isRunning ?? false } }

    /// Starts the server and waits for its `listening on` line (on the port of the first start).
    public func start() async throws {
        let port = self.port
        for attempt in 0..<50 {
            do {
                try await launch(port: port)
                return
            } catch ChaosServerError.exited(let message) where port != 0 && message.contains("in use") {
                // The killed server's socket is not released yet: try again in a moment.
                if attempt == 49 { throw ChaosServerError.exited(message) }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func launch(port: Int) async throws {
        guard let executable = command.first else { throw ChaosServerError.exited("no command") }
        let process = try await ChildProcess(
            URL(fileURLWithPath: executable), Array(command.dropFirst()) + ["--port", String(port)])
        guard let bound = await process.listeningPort(within: .seconds(12)) else {
            process.signal(SIGKILL)
            // What explains a failure to start is at the end of what it said.
            let said = String(process.standardError.suffix(2_000))
            throw ChaosServerError.exited(process.isRunning ? "no 'listening on' line after 12 s" : said)
        }
        state.withLock { $0 = (process, bound) }
    }

    /// Kills the server with SIGKILL and waits until it is gone.
    ///
    /// - Throws: ``ChaosServerError/stuck(_:)`` when it still runs 30 s later.
    public func kill() async throws {
        guard let process = state.withLock({ $0.process }) else { return }
        process.signal(SIGKILL)
        if await process.exitStatus(within: .seconds(30)) != nil { return }
        throw ChaosServerError.stuck("process \(process.pid) still runs 30 s after SIGKILL")
    }

    /// Makes the server's data folder full (true) or gives it room again (false).
    ///
    /// Through its `--lab-disk-faults` switch (SIGUSR1, SIGUSR2). A server started again has room.
    public func setDiskFull(_ full: Bool) {
        state.withLock { $0.process }?.signal(full ? SIGUSR1 : SIGUSR2)
    }

    /// Stops the server with SIGTERM (a clean stop) and waits, at most 15 s before a SIGKILL.
    public func stop() async {
        guard let process = state.withLock({ $0.process }), process.isRunning else { return }
        process.signal(SIGTERM)
        if await process.exitStatus(within: .seconds(15)) == nil { process.signal(SIGKILL) }
    }
}

/// Why the chaos run's server did not start, or did not stop.
public enum ChaosServerError: Error, CustomStringConvertible {
    /// The process exited, or never said it was listening.
    case exited(String)
    /// The process did not end when killed.
    case stuck(String)

    /// A message naming the problem.
    public var description: String {
        switch self {
        case .exited(let message): "the server did not start: \(message)"
        case .stuck(let message): "the server did not stop: \(message)"
        }
    }
}
