import Foundation
import RTDBTestSupport

/// A tmux server of the test's own (`-L`, a private socket) running one program in one pane: keys
/// in with `send-keys`, the screen out with `capture-pane`.
final class TmuxSession {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let socket = "presencetop-test-\(UUID().uuidString.prefix(8))"

    /// Starts `command` in a `width` × `height` pane; the pane stays after it exits, so the test
    /// can read the last screen and the exit status.
    init(command: String, width: Int, height: Int) throws {
        // The server this starts outlives the call and would hold an output pipe open forever.
        try tmux(
            [
                "new-session", "-d", "-s", "main", "-x", "\(width)", "-y", "\(height)",
                "\(command); echo \"EXIT=$?\"; sleep 120",
            ], output: false)
    }

    /// The pane's text now; with `history`, everything that scrolled off the top too.
    func screen(history: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "main"] + (history ? ["-S", "-"] : []))
    }

    /// Sends keys (tmux key names: `q`, `Escape`, `C-c`).
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }

    /// Types `text` as it is, byte for byte (a mouse report's escape sequence, say).
    func sendLiteral(_ text: String) throws { try tmux(["send-keys", "-t", "main", "-l", text]) }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)"])
    }

    /// A tmux format for the pane (`#{alternate_on}`).
    func display(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "main", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds (every 100 ms, up to `seconds`); returns the last
    /// screen either way, so a failure shows what was there.
    @discardableResult
    func waitFor(seconds: Double = 30, _ condition: (String) -> Bool) async throws -> (Bool, String) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return (true, last) }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (false, last)
    }

    func close() {
        _ = try? tmux(["kill-server"], output: false)
    }

    /// Runs tmux and returns what it printed.
    ///
    /// It polls for the exit (a blocking wait can hang a test's thread); the output of one call is
    /// a screen, well under a pipe's buffer.
    @discardableResult
    private func tmux(_ arguments: [String], output: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "tmux")
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let pipe = Pipe()
        process.standardOutput = output ? pipe : FileHandle.nullDevice
        process.standardError = output ? pipe : FileHandle.nullDevice
        try process.run()
        // `new-session` forks the tmux server and its client is not always reaped at once; what
        // it started is checked by the screen polls that follow, so it is not waited on long.
        let deadline = Date().addingTimeInterval(output ? 30 : 2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard output else { return "" }
        pipe.fileHandleForWriting.closeFile()
        return String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
    }
}
