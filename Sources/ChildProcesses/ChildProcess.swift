import Foundation
import RTDBCore
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A process this program started (a `presencetop serve`, a benchmark's helper, a test's
/// subject), its output captured as it comes, and the one way to wait on it: for its output to
/// say something, or for its end, each an event, never a poll.
///
/// It runs under swift-subprocess, which watches the child through a pidfd. Foundation's `Process`
/// learns of an exit from a socket the child inherits; a process spawned at the same moment by
/// another thread can inherit that socket too, and then an exit is never seen (a SIGKILLed server
/// "did not exit" for 20 s on a loaded CI run).
public final class ChildProcess: Sendable {
    private let state = Mutex(State())
    /// Signalled at each piece of output and at the end.
    public let changes = ChangeSignal()

    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var pid: pid_t = 0
        var status: Int32?
    }

    /// Starts `executable` with `arguments` (and `environment` on top of this process's own).
    ///
    /// Returns once the process is running; throws if it could not be started.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws {
        var overrides: [Environment.Key: String] = [:]
        for (key, value) in environment { overrides[Environment.Key(stringLiteral: key)] = value }
        let (started, reportStart) = AsyncStream<Result<pid_t, any Error>>.makeStream()
        Task.detached { [self, overrides] in
            let status: Int32
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable.path)), arguments: Arguments(arguments),
                    environment: .inherit.updating(overrides), input: .none, output: .sequence, error: .sequence
                ) { execution in
                    state.withLock { $0.pid = execution.processIdentifier.value }
                    reportStart.yield(.success(execution.processIdentifier.value))
                    async let out: Void = collect(execution.standardOutput, error: false)
                    async let err: Void = collect(execution.standardError, error: true)
                    _ = await (out, err)
                }
                switch result.terminationStatus {
                case .exited(let code): status = code
                case .signaled(let signal): status = signal
                }
            } catch {
                reportStart.yield(.failure(error))
                append("could not run \(executable.path): \(error)".utf8, error: true)
                status = -1
            }
            state.withLock { $0.status = status }
            changes.signal()
        }
        for await outcome in started {
            _ = try outcome.get()
            return
        }
    }

    private func collect(_ output: SubprocessOutputSequence, error: Bool) async {
        do {
            for try await buffer in output {
                buffer.withUnsafeBytes { append($0, error: error) }
            }
        } catch let failure {
            append("\n[output lost: \(failure)]\n".utf8, error: error)
        }
    }

    private func append(_ bytes: some Sequence<UInt8>, error: Bool) {
        state.withLock { error ? $0.stderr.append(contentsOf: bytes) : $0.stdout.append(contentsOf: bytes) }
        changes.signal()
    }

    /// Everything written to stdout so far.
    public var standardOutput: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Everything written to stderr so far.
    public var standardError: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    /// Whether the process is still running.
    public var isRunning: Bool { state.withLock { $0.status == nil } }
    /// Its exit code (or the signal that ended it), once it has ended.
    public var status: Int32? { state.withLock { $0.status } }
    /// The process id.
    public var pid: Int32 { state.withLock { $0.pid } }

    /// Sends a signal (SIGKILL, SIGTERM, SIGINT…), unless the process has already been reaped.
    public func signal(_ signal: Int32) {
        state.withLock { state in
            // Once the library has reaped the child its pid could be reused; the exit is recorded
            // right after, so only that short window is left.
            if state.status == nil, state.pid > 0 { kill(state.pid, signal) }
        }
    }

    /// Waits until `holds` is true of the process (its output so far, whether it runs); false once
    /// the process has ended without it holding, or after `bound` when one is given.
    ///
    /// Checked now, at each piece of output and at the exit: a wait bounded by the process's life;
    /// `bound` only turns a hang into an answer, it is not a timing claim.
    public func waitForOutput(
        within bound: Duration? = nil, until holds: @escaping @Sendable (ChildProcess) -> Bool
    ) async -> Bool {
        guard let bound else { return await waitForOutput(until: holds) }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitForOutput(until: holds) }
            group.addTask {
                try? await Task.sleep(for: bound)
                return holds(self)
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func waitForOutput(until holds: (ChildProcess) -> Bool) async -> Bool {
        while true {
            let seen = changes.generation
            if holds(self) || !isRunning || Task.isCancelled { return holds(self) }
            await changes.changed(after: seen)
        }
    }

    /// The port of the `listening on http://HOST:PORT` line `presencetop serve` prints (first,
    /// unless a wrapper such as heaptrack spoke before it), once it has; nil if the process ended
    /// (or `bound` passed) first.
    public func listeningPort(within bound: Duration? = nil) async -> Int? {
        let said = await waitForOutput(within: bound) { $0.listeningPort != nil }
        return said ? listeningPort : nil
    }

    private var listeningPort: Int? {
        guard let line = standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("listening on http") })
        else { return nil }
        return line.split(separator: ":").last.flatMap { Int($0) }
    }

    /// Waits for the process to end and returns its exit code (or the signal that ended it); nil
    /// if it still runs after `bound` (a hang turned into an answer, not a timing claim).
    public func exitStatus(within bound: Duration) async -> Int32? {
        _ = await waitForOutput(within: bound) { !$0.isRunning }
        return status
    }
}
