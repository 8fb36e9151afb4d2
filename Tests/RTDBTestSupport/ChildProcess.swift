import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A real process (usually the built `presencetop`), with its output captured as it comes.
///
/// It runs under swift-subprocess, which watches the child through a pidfd. Foundation's `Process`
/// learns of an exit from a socket the child inherits; a process spawned at the same moment by
/// another test can inherit that socket too, and then an exit is never seen (a SIGKILLed server
/// "did not exit" for 20 s on a loaded CI run).
public final class ChildProcess: Sendable {
    private let shared = Shared()

    /// What the watching task and the test's calls share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let exited = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        /// A tick at each piece of output (true: stderr), which wakes ``waitForOutput``.
        let grew = Recorder<Bool>()

        func append(_ bytes: some Sequence<UInt8>, error: Bool) {
            state.withLock { error ? $0.stderr.append(contentsOf: bytes) : $0.stdout.append(contentsOf: bytes) }
            grew.record(error)
        }
    }

    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var pid: pid_t = 0
        var status: Int32?
    }

    /// The directory holding the built products (`.build/<triple>/debug`).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The built `presencetop` executable.
    public static var presencetop: URL { productsDirectory.appendingPathComponent("presencetop") }

    /// The built `presencetop-bench` executable.
    public static var bench: URL { productsDirectory.appendingPathComponent("presencetop-bench") }

    /// Starts `executable` with `arguments` (and `environment` on top of this process's own).
    ///
    /// Returns once the process is running; throws if it could not be started.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws {
        let overrides = Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0), $1) })
        let (started, reportStart) = AsyncStream<Result<pid_t, any Error>>.makeStream()
        let shared = shared
        Task.detached {
            let status: Int32
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable.path)), arguments: Arguments(arguments),
                    environment: .inherit.updating(overrides), input: .none, output: .sequence, error: .sequence
                ) { execution in
                    shared.state.withLock { $0.pid = execution.processIdentifier.value }
                    reportStart.yield(.success(execution.processIdentifier.value))
                    async let out: Void = Self.collect(execution.standardOutput, into: shared, error: false)
                    async let err: Void = Self.collect(execution.standardError, into: shared, error: true)
                    _ = await (out, err)
                }
                switch result.terminationStatus {
                case .exited(let code): status = code
                case .signaled(let signal): status = signal
                }
            } catch {
                reportStart.yield(.failure(error))
                shared.append("could not run \(executable.path): \(error)".utf8, error: true)
                status = -1
            }
            shared.state.withLock { $0.status = status }
            shared.grew.record(false)  // an exit wakes the waits on output too
            shared.exited.continuation.yield(status)
            shared.exited.continuation.finish()
        }
        for await outcome in started {
            _ = try outcome.get()
            return
        }
    }

    private static func collect(_ output: SubprocessOutputSequence, into shared: Shared, error: Bool) async {
        do {
            for try await buffer in output {
                buffer.withUnsafeBytes { shared.append($0, error: error) }
            }
        } catch let failure {
            shared.append("\n[output lost: \(failure)]\n".utf8, error: error)
        }
    }

    /// Waits until stdout (or stderr) holds `text`; false once the process has ended without it.
    ///
    /// Checked now, at each piece of output and at the exit: a barrier bounded by the process's
    /// life, not by a guess of the machine's speed (a process that hangs silent is named by the
    /// test's time limit and the suite's deadline).
    public func waitForOutput(containing text: String, standardError: Bool = false) async -> Bool {
        await waitForOutput { [self] _ in (standardError ? self.standardError : standardOutput).contains(text) }
    }

    /// Waits until `holds` is true of the process (its output so far, whether it runs); false once
    /// the process has ended without it holding.
    ///
    /// Checked now, at each piece of output and at its exit, as ``waitForOutput(containing:standardError:)``.
    public func waitForOutput(until holds: @escaping @Sendable (ChildProcess) -> Bool) async -> Bool {
        await shared.grew.wait(timeout: nil) { [self] _ in holds(self) || !isRunning }
        return holds(self)
    }

    /// Everything written to stdout so far.
    public var standardOutput: String { shared.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Everything written to stderr so far.
    public var standardError: String { shared.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    /// Whether the process is still running.
    public var isRunning: Bool { shared.state.withLock { $0.status == nil } }
    /// The process id.
    public var pid: Int32 { shared.state.withLock { $0.pid } }

    /// Sends a signal (SIGKILL, SIGTERM, SIGINT…), unless the process has already been reaped.
    public func signal(_ signal: Int32) {
        shared.state.withLock { state in
            // Once the library has reaped the child its pid could be reused; the exit is recorded right
            // after, so only that short window is left, and a test signals only its own live children.
            if state.status == nil, state.pid > 0 { kill(state.pid, signal) }
        }
    }

    /// Waits for the process to end and returns its exit code (or the signal that ended it).
    ///
    /// `seconds` only turns a hang into a failure that names the process; it is not a timing claim.
    /// A process still running then has its threads' stacks named in the failure, when the machine
    /// has gdb (`namingStacks`), so that a hang says where it stands.
    public func waitForExit(seconds: Double = 60, namingStacks: Bool = true) async throws -> Int32 {
        if let status = shared.state.withLock({ $0.status }) { return status }
        let exited = shared.exited.stream
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in exited { return status }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let status = status ?? shared.state.withLock({ $0.status }) { return status }
        let stacks = namingStacks ? await Self.stacks(of: pid) : ""
        throw TestFailure("process \(pid) did not exit within \(Int(seconds)) s; stderr: \(standardError)\(stacks)")
    }

    /// The threads' stacks of process `pid`, from gdb, for a failure's message; empty without gdb.
    ///
    /// Where the machine forbids tracing (a container without ptrace: gdb says `ptrace: Operation not
    /// permitted`), the reason is named and each thread's name and state is read from `/proc`
    /// instead, which needs no tracing, so a hang still says which threads were waiting.
    static func stacks(of pid: Int32) async -> String {
        let gdb = URL(fileURLWithPath: "/usr/bin/gdb")
        guard FileManager.default.isExecutableFile(atPath: gdb.path),
            let child = try? await ChildProcess(gdb, ["-p", String(pid), "-batch", "-ex", "thread apply all bt 25"])
        else { return "" }
        _ = try? await child.waitForExit(seconds: 120, namingStacks: false)
        let lines = (child.standardOutput + child.standardError).split(separator: "\n")
        let frames = lines.filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") || $0.contains("ptrace") }
        var text = "\nthreads (gdb):\n" + String(frames.joined(separator: "\n").suffix(16_000))
        if !frames.contains(where: { $0.hasPrefix("#") }) { text += "\nthreads (/proc):\n" + threadStates(of: pid) }
        return text
    }

    /// One line per thread of process `pid` from `/proc`: its id, name and state (`S` sleeping,
    /// `R` running, `D` in the disk…), and the kernel function it waits in where the kernel says.
    public static func threadStates(of pid: Int32) -> String {
        let tasks = "/proc/\(pid)/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
            return "(process \(pid) is gone)"
        }
        return ids.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { id in
            let stat = (try? String(contentsOfFile: "\(tasks)/\(id)/stat", encoding: .utf8)) ?? ""
            // `pid (name) state …`: the name may hold spaces and parentheses, so it ends at the last ")".
            let name =
                stat.firstIndex(of: "(").flatMap { open in
                    stat.lastIndex(of: ")").map { String(stat[stat.index(after: open)..<$0]) }
                } ?? "?"
            let state = stat.lastIndex(of: ")").map { stat[$0...].dropFirst(2).prefix(1) } ?? "?"
            let wchan = (try? String(contentsOfFile: "\(tasks)/\(id)/wchan", encoding: .utf8)) ?? ""
            let waiting = wchan.isEmpty || wchan == "0" ? "" : " in \(wchan)"
            return "\(id) \"\(name)\" \(state)\(waiting)"
        }.joined(separator: "\n")
    }

    /// Starts `presencetop serve` and waits for its `listening on` line; returns the process and port.
    ///
    /// - Parameters:
    ///   - descriptorLimit: When given, the server runs under `ulimit -n` of it.
    ///   - fileSizeLimit: When given, the server runs under an RLIMIT_FSIZE of this many bytes.
    ///   - environment: Variables set for the server (without either limit).
    public static func serve(
        _ arguments: [String], descriptorLimit: Int? = nil, fileSizeLimit: Int? = nil,
        environment: [String: String] = [:]
    ) async throws -> (ChildProcess, Int) {
        let serveArguments = ["serve", "--port", "0"] + arguments
        let child: ChildProcess
        if let fileSizeLimit {
            // RLIMIT_FSIZE: what a full disk looks like to the program (its writes fail past it).
            child = try await ChildProcess(
                URL(fileURLWithPath: "/usr/bin/prlimit"),
                ["--fsize=\(fileSizeLimit)", presencetop.path] + serveArguments)
        } else if let descriptorLimit {
            let command = ([presencetop.path] + serveArguments).map { "'\($0)'" }.joined(separator: " ")
            child = try await ChildProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -n \(descriptorLimit) && exec \(command)"])
        } else {
            child = try await ChildProcess(presencetop, serveArguments, environment: environment)
        }
        for _ in 0..<600 {
            let out = child.standardOutput
            if let line = out.split(separator: "\n").first, line.hasPrefix("listening on http"),
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
