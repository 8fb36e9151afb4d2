import Foundation
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

extension RenderBenchmark {
    /// The running dashboard's CPU time while nothing happens, in its two settings: with the
    /// embedded server and a simulated population, and attached to a quiet server of its own.
    func idleCPU(_ report: BenchReport) async throws {
        guard let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: FileManager.default.isExecutableFile)
        else {
            report.say("idle CPU: skipped (no tmux)")
            report.record("idle_cpu", "skipped: no tmux")
            return
        }
        try await idleCPU(
            of: "--churn 0 --memory", setting: "embedded server, 8 users × 2 devices, this device",
            key: "idle_cpu_simulation_percent_of_a_core", target: 1, tag: "simulation", tmux: tmux, report)
        // A quiet server of its own: the dashboard attached, this device and its watcher only.
        let port = try await ServeProcess.start(report, named: "the quiet server")
        try await idleCPU(
            of: "--url 'http://127.0.0.1:\(port)?ns=bench' --churn 0", setting: "attached to a quiet server",
            key: "idle_cpu_attached_percent_of_a_core", target: 0.3, tag: "attached", tmux: tmux, report)
    }

    /// Runs the dashboard with `arguments` in a private tmux server, and reads its CPU time from
    /// /proc over ``idleSeconds`` once it has settled.
    private func idleCPU(
        of arguments: String, setting: String, key: String, target: Double, tag: String, tmux: String,
        _ report: BenchReport
    ) async throws {
        let socket = "presencetop-bench-\(getpid())-\(tag)"
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        let binary = try BenchSupport.presencetop().path
        let command =
            "env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=\(home.path)/state XDG_DATA_HOME=\(home.path)/data "
            + "\(binary) \(arguments)"
        // Under swift-subprocess, which watches the client through a pidfd (as `ChildProcess`
        // does); a server started here outlives the call, so `new-session` gets no pipe to hold.
        @Sendable func run(_ arguments: [String]) async throws -> String {
            let (executable, all) = (
                Executable.path(FilePath(tmux)), Arguments(["-L", socket, "-f", "/dev/null"] + arguments)
            )
            guard arguments.first != "new-session" else {
                _ = try await Subprocess.run(executable, arguments: all, output: .discarded, error: .discarded)
                return ""
            }
            let result = try await Subprocess.run(
                executable, arguments: all, output: .string(limit: 1 << 16), error: .discarded)
            return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Registered before the session starts: an interrupt at any moment from here on finds it.
        // The tmux server and the dashboard are ended by what names the socket (the server's
        // command line does): found running an hour after a run once, and again after an
        // interrupt that came while the session was starting.
        let cleanUp: @Sendable () -> Void = {
            BenchSupport.terminateProcesses(mentioning: socket)
            try? FileManager.default.removeItem(at: home)
            // tmux leaves its socket file behind when its server is killed.
            let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            try? FileManager.default.removeItem(atPath: "\(folder)/tmux-\(getuid())/\(socket)")
        }
        report.onExit("the tmux server and the dashboard in it", cleanUp)
        defer { cleanUp() }
        _ = try await run(["new-session", "-d", "-s", "bench", "-x", "160", "-y", "48", command])
        let pid = try await run(["display-message", "-p", "-t", "bench", "#{pane_pid}"])
        try await Task.sleep(for: .seconds(5))  // start-up and the first connections settle
        guard let before = Self.cpuTicks(pid: pid) else {
            report.say("idle CPU (\(setting)): the dashboard did not start")
            report.record(key, -1)
            return
        }
        try await Task.sleep(for: .seconds(idleSeconds))
        guard let after = Self.cpuTicks(pid: pid) else { return }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let percent = Double(after - before) / ticksPerSecond / Double(idleSeconds) * 100
        report.record(key, percent)
        report.say(
            String(
                format:
                    "idle CPU of the running dashboard (%@; no keys) over %d s: %.2f %% of a core (target: under %.1f %%)",
                setting, idleSeconds, percent, target))
    }
}
