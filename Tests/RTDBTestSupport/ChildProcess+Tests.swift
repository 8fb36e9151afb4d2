@_exported import ChildProcesses
import Foundation

/// What tests add to a child process: the built products, `presencetop serve` on a free port,
/// and an exit waited for with a failure that names where a hung process stands.
extension ChildProcess {
    /// The directory holding the built products (`.build/<triple>/debug`).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The built `presencetop` executable.
    public static var presencetop: URL { productsDirectory.appendingPathComponent("presencetop") }

    /// The built `presencetop-bench` executable.
    public static var bench: URL { productsDirectory.appendingPathComponent("presencetop-bench") }

    /// Waits until stdout (or stderr) holds `text`; false once the process has ended without it.
    ///
    /// Checked now, at each piece of output and at the exit: a barrier bounded by the process's
    /// life, not by a guess of the machine's speed (a process that hangs silent is named by the
    /// test's time limit and the suite's deadline).
    public func waitForOutput(containing text: String, standardError: Bool = false) async -> Bool {
        await waitForOutput { child in (standardError ? child.standardError : child.standardOutput).contains(text) }
    }

    /// Waits for the process to end and returns its exit code (or the signal that ended it).
    ///
    /// `seconds` only turns a hang into a failure that names the process; it is not a timing claim.
    /// A process still running then has its threads' stacks named in the failure, when the machine
    /// has gdb (`namingStacks`), so that a hang says where it stands.
    public func waitForExit(seconds: Double = 60, namingStacks: Bool = true) async throws -> Int32 {
        if let status = await exitStatus(within: .milliseconds(Int64(seconds * 1000))) { return status }
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
        if let port = await child.listeningPort() { return (child, port) }
        throw TestFailure("serve exited before it listened: \(child.standardOutput) \(child.standardError)")
    }
}
