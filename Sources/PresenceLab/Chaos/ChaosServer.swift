import Foundation
import Synchronization

/// `presencetop serve` as a child process the chaos run can kill with SIGKILL and start again on
/// the same port and data.
public final class ChaosServer: Sendable {
    /// The command that starts a server (the presencetop executable, `serve`, its options);
    /// `--port` is added.
    let command: [String]
    private let state = Mutex<(process: Process?, port: Int)>((nil, 0))

    /// Makes a server that `start()` runs.
    public init(command: [String]) {
        self.command = command
    }

    /// The port it listens on (fixed by the first start).
    public var port: Int { state.withLock { $0.port } }

    /// Whether the process is running now.
    public var isRunning: Bool { state.withLock { $0.process.map { !Self.hasEnded($0) } ?? false } }

    /// Whether `process` has ended.
    ///
    /// Foundation's `Process` learns of an exit from a socket the child inherits; a process
    /// spawned at that moment can inherit it too and hold it open, and then `isRunning` stays true
    /// for good. On Linux the kernel says it as well: the process is gone, or a zombie nobody has
    /// reaped yet.
    static func hasEnded(_ process: Process) -> Bool {
        !process.isRunning || hasEnded(pid: process.processIdentifier)
    }

    /// Whether the process `pid` is gone or a zombie (Linux's `/proc`; elsewhere, never known).
    static func hasEnded(pid: Int32) -> Bool {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command name's closing parenthesis (the name may hold one).
            guard let close = stat.lastIndex(of: ")") else { return false }
            let processState = stat[stat.index(after: close)...].first { $0 != " " }
            return processState == "Z" || processState == "X"
        #else
            return false
        #endif
    }

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst()) + ["--port", String(port)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let lines = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            lines.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        let errorText = Mutex("")
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // Keep the end: what explains a failure to start.
            errorText.withLock { $0 = String(($0 + String(decoding: data, as: UTF8.self)).suffix(2_000)) }
        }
        for _ in 0..<600 {
            let text = lines.withLock { $0 }
            if let line = text.split(separator: "\n").first, line.hasPrefix("listening on http://"),
                let bound = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                state.withLock { $0 = (process, bound) }
                return
            }
            if Self.hasEnded(process) { throw ChaosServerError.exited(errorText.withLock { $0 }) }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw ChaosServerError.exited("no 'listening on' line after 12 s")
    }

    /// Kills the server with SIGKILL and waits until it is gone.
    ///
    /// - Throws: ``ChaosServerError/stuck(_:)`` when it still runs 30 s later.
    public func kill() async throws {
        guard let process = state.withLock({ $0.process }) else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        if await Self.waitForEnd(of: process, within: .seconds(30)) { return }
        throw ChaosServerError.stuck("process \(process.processIdentifier) still runs 30 s after SIGKILL")
    }

    /// Makes the server's data folder full (true) or gives it room again (false).
    ///
    /// Through its `--lab-disk-faults` switch (SIGUSR1, SIGUSR2). A server started again has room.
    public func setDiskFull(_ full: Bool) {
        guard let process = state.withLock({ $0.process }), process.isRunning else { return }
        Foundation.kill(process.processIdentifier, full ? SIGUSR1 : SIGUSR2)
    }

    /// Stops the server with SIGTERM (a clean stop) and waits.
    public func stop() async {
        guard let process = state.withLock({ $0.process }), !Self.hasEnded(process) else { return }
        process.terminate()
        if !(await Self.waitForEnd(of: process, within: .seconds(15))) {
            Foundation.kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Whether `process` ends within `bound`, looked at every 10 ms (a bound that turns a hang
    /// into an answer, not a timing claim).
    private static func waitForEnd(of process: Process, within bound: Duration) async -> Bool {
        let tries = Int(bound / .milliseconds(10))
        for _ in 0..<tries {
            if hasEnded(process) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return hasEnded(process)
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
