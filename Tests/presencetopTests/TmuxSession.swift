import Foundation
import RTDBTestSupport
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A tmux server of the test's own (`-L`, a private socket) running one program in one pane: keys
/// in with `send-keys`, the screen out with `capture-pane`.
final class TmuxSession: Sendable {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let socket = "presencetop-test-\(UUID().uuidString.prefix(8))"

    /// Starts `command` in a `width` × `height` pane; the pane stays after it exits, so the test
    /// can read the last screen and the exit status.
    init(command: String, width: Int, height: Int) async throws {
        // The tmux server this starts outlives the call, so its output goes nowhere (a pipe would
        // stay open as long as the server).
        try await tmux(
            [
                "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)",
                "\(command); echo \"EXIT=$?\"; sleep 120",
            ], output: false)
    }

    /// The pane's text now; with `history`, everything that scrolled off the top too.
    func screen(history: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "main"] + (history ? ["-S", "-"] : []))
    }

    /// Sends keys (tmux key names: `q`, `Escape`, `C-c`).
    func send(_ keys: String...) async throws { try await tmux(["send-keys", "-t", "main"] + keys) }

    /// Types `text` as it is, byte for byte (a mouse report's escape sequence, say).
    func sendLiteral(_ text: String) async throws { try await tmux(["send-keys", "-t", "main", "-l", text]) }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format for the pane (`#{alternate_on}`).
    func display(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", "main", format])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds (every 100 ms, up to `seconds`); returns the last
    /// screen either way, so a failure shows what was there.
    @discardableResult
    func waitFor(seconds: Double = 30, _ condition: (String) -> Bool) async throws -> (Bool, String) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try await screen()
            if condition(last) { return (true, last) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (false, last)
    }

    /// Presses `q` and waits for the program to exit; true when it exited with `status`.
    ///
    /// Given the dashboard's `home` (as `DashboardTmuxTests.command` made it), a failure's screen
    /// ends with the tail of its log, which times each step of the stop.
    func quit(expecting status: Int32 = 0, home: URL? = nil) async throws -> (Bool, String) {
        try await send("q")
        let (ok, screen) = try await waitFor { $0.contains("EXIT=") }
        let passed = ok && screen.contains("EXIT=\(status)")
        guard !passed, let home else { return (passed, screen) }
        let log = home.appendingPathComponent("state/presencetop/presencetop.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? "(no log at \(log.path))"
        return (
            passed,
            screen + "\n--- the dashboard's log, last lines ---\n"
                + text.split(separator: "\n").suffix(30).joined(separator: "\n")
        )
    }

    /// Stops the tmux server and the program in it, before returning.
    ///
    /// Synchronous (it runs from `defer`): a detached task could still be waiting when the test
    /// process exits, and the program, a whole dashboard with its embedded server, was left
    /// running (21 were found after a day of test runs).
    func close() {
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/tmux")
        kill.arguments = ["-L", socket, "kill-server"]
        kill.standardOutput = FileHandle.nullDevice
        kill.standardError = FileHandle.nullDevice
        guard (try? kill.run()) != nil else { return }
        kill.waitUntilExit()
    }

    /// Runs tmux on this session's server and returns what it printed.
    @discardableResult
    private func tmux(_ arguments: [String], output: Bool = true) async throws -> String {
        try await Self.run(socket: socket, arguments, output: output)
    }

    private static func run(socket: String, _ arguments: [String], output: Bool) async throws -> String {
        let executable = Subprocess.Executable.path(FilePath(Self.executable ?? "/usr/bin/tmux"))
        let arguments = Arguments(["-L", socket, "-f", "/dev/null"] + arguments)
        guard output else {
            _ = try await Subprocess.run(executable, arguments: arguments, output: .discarded, error: .discarded)
            return ""
        }
        let result = try await Subprocess.run(
            executable, arguments: arguments, output: .string(limit: 1 << 20), error: .combinedWithOutput)
        return result.standardOutput
    }
}
