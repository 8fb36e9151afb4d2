import Foundation
import RTDBTestSupport
import Testing

/// The mouse and a crash, in a real terminal (tmux).
///
/// Skipped without tmux locally; in CI (`CI=true`) tmux is installed by `.ci/run` and required.
@Suite(.serialized) struct DashboardKeysTmuxTests {
    /// The mouse as a real terminal reports it (the keys run in memory, `LiveDashboardTests`).
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aClickSelectsARowAndEnterInTheSameWriteExpandsIt() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 3 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 160, height: 48)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("Events") }
        #expect(ok, "\(screen)")

        // The mouse: focus moves away with Tab, then a click on the third user's row (SGR mouse
        // report: button 0 at column 10 of screen row 12, pressed then released) selects it. Enter
        // comes in the same write, as a quick hand types it: ncurses then queues the press and the
        // release without merging them, and the press must not be lost.
        try await tmux.send("Tab")
        try await tmux.sendLiteral("\u{1B}[<0;10;12M\u{1B}[<0;10;12m\r")
        (ok, screen) = try await tmux.waitFor { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            return lines.count > 13 && lines[11].contains("sam") && lines[12].contains("▾")
        }
        #expect(ok, "a click selects sam, and Enter expands sam's connections:\n\(screen)")
        try await tmux.send("q")
    }

    @Test(
        .enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"),
        arguments: [
            // A segfault, handed on to Swift's backtracer (non-interactive: the pane is a terminal).
            ("segv", "SWIFT_BACKTRACE=interactive=no", "Program crashed"),
            // A runtime trap with the backtracer off: the default action ends the process.
            ("trap", "SWIFT_BACKTRACE=enable=no", "Fatal error: PRESENCETOP_TEST_FAULT=trap"),
        ])
    func aCrashGivesTheTerminalBack(fault: String, backtrace: String, message: String) async throws {
        let (command, home) = try DashboardTmuxTests.command(
            "--users 1 --churn 0 --memory", environment: ["PRESENCETOP_TEST_FAULT=\(fault)", backtrace])
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.close() }
        let (ok, screen) = try await tmux.waitFor(seconds: 60) { $0.contains("EXIT=") }
        let status = screen.components(separatedBy: "EXIT=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(ok && status > 128, "the process dies of a signal:\n\(screen)")
        let all = try await tmux.screen(history: true)
        #expect(all.contains(message), "its report is on the normal screen:\n\(all)")
        #expect(try await tmux.display("#{alternate_on}") == "0", "the terminal is back on the normal screen")
    }
}
