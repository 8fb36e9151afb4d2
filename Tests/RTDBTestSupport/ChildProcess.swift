import Foundation
import Synchronization

/// A real `presencetop` process (built next to the test bundle), with its output captured.
public final class ChildProcess: Sendable {
    private let process: Process
    private let pipes: (stdout: Pipe, stderr: Pipe)
    private let output = OutputBuffer()

    private final class OutputBuffer: Sendable {
        let state = Mutex<(stdout: String, stderr: String)>(("", ""))
    }

    /// The directory holding the built products (`.build/<triple>/debug`).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The built `presencetop` executable.
    public static var presencetop: URL { productsDirectory.appendingPathComponent("presencetop") }

    /// Starts `executable` with `arguments`.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        pipes = (stdout, stderr)
        process.standardOutput = stdout
        process.standardError = stderr
        let output = output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.state.withLock { $0.stdout += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.state.withLock { $0.stderr += text }
        }
        try process.run()
    }

    /// Everything written to stdout so far.
    public var standardOutput: String { output.state.withLock { $0.stdout } }
    /// Everything written to stderr so far.
    public var standardError: String { output.state.withLock { $0.stderr } }
    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }
    /// The exit status once it has ended.
    public var exitStatus: Int32 { process.terminationStatus }
    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends a signal (SIGKILL, SIGTERM, SIGINT…).
    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end, polling so as not to block a concurrency thread.
    public func waitForExit(attempts: Int = 400) async throws -> Int32 {
        for _ in 0..<attempts {
            if !process.isRunning {
                drain()
                return process.terminationStatus
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("process \(pid) did not exit; stderr: \(standardError)")
    }

    /// Collects what is left in the pipes once the process has exited, so no late output is lost.
    private func drain() {
        pipes.stdout.fileHandleForReading.readabilityHandler = nil
        pipes.stderr.fileHandleForReading.readabilityHandler = nil
        let out = String(decoding: pipes.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: pipes.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        output.state.withLock {
            $0.stdout += out
            $0.stderr += err
        }
    }

    /// Starts `presencetop serve` and waits for its `listening on` line; returns the process and port.
    public static func serve(_ arguments: [String]) async throws -> (ChildProcess, Int) {
        let child = try ChildProcess(presencetop, ["serve", "--port", "0"] + arguments)
        for _ in 0..<600 {
            let out = child.standardOutput
            if let line = out.split(separator: "\n").first, line.hasPrefix("listening on http://"),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return (child, port)
            }
            if !child.isRunning { throw TestFailure("serve exited: \(child.standardError)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("serve printed no 'listening on' line: \(child.standardOutput) \(child.standardError)")
    }
}
