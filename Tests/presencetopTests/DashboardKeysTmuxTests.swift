import Foundation
import RTDBTestSupport
import Testing

/// The dashboard's other keys and the mouse, and a crash, in a real terminal (tmux).
///
/// Skipped without tmux locally; in CI (`CI=true`) tmux is installed by `.ci/run` and required.
@Suite(.serialized) struct DashboardKeysTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func eachKeyActsOnThisDeviceOrThePopulation() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 3 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        // Wide enough for the Events pane, where each action's outcome is listed.
        let tmux = try await TmuxSession(command: command, width: 160, height: 48)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("Events") }
        #expect(ok, "\(screen)")
        #expect(screen.contains("as morgan  token until "), "who this device is, and until when:\n\(screen)")

        try await tmux.send("t")
        (ok, screen) = try await tmux.waitFor { $0.contains("transaction on counters/morgan/taps committed: 1") }
        #expect(ok, "t runs a transaction that commits:\n\(screen)")

        // The embedded server runs the presence rules: another user's presence is not ours to write.
        try await tmux.send("r")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("Dead letters (1)")
                && $0.contains("refused: permission_denied Permission denied: no .write rule allows writing")
        }
        #expect(
            ok, "r writes where the rules refuse: a dead letter with Firebase's words and the rules' reason:\n\(screen)"
        )

        try await tmux.send("a")
        (ok, screen) = try await tmux.waitFor { $0.contains("credential expired: writes paused") }
        #expect(ok, "a expires the credential:\n\(screen)")
        try await tmux.send("w")
        (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes (1)") && $0.contains("paused") }
        #expect(ok, "a write waits, paused, while connected:\n\(screen)")
        try await tmux.send("a")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("signed in again") && $0.contains("Pending writes (0)") && $0.contains("token until")
        }
        #expect(ok, "a signs in again and the write goes:\n\(screen)")

        try await tmux.send("l")
        (ok, screen) = try await tmux.waitFor { $0.contains("link now 400 ms") && $0.contains("(slow)") }
        #expect(ok, "l adds latency to this device's link:\n\(screen)")
        try await tmux.send("l")
        (ok, screen) = try await tmux.waitFor { !$0.contains("(slow)") }
        #expect(ok, "l again takes it off:\n\(screen)")

        try await tmux.send("+")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("clock moved: now +1.0 s") && $0.contains("clock moved +1.0 s")
        }
        #expect(ok, "+ moves this device's clock, and the Clock skew pane says so:\n\(screen)")
        // The step as measured (wall against monotonic progress): about a second, to the ms.
        (ok, screen) = try await tmux.waitFor {
            $0.contains("clock jump of +") && $0.contains("noticed: server time re-estimated at once")
        }
        #expect(ok, "the client notices the step itself, within its ping interval:\n\(screen)")

        try await tmux.send("T")
        (ok, screen) = try await tmux.waitFor { $0.contains("theme ansi") }
        #expect(ok, "T goes to the next theme:\n\(screen)")

        try await tmux.send("d")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("  added") && $0.contains("Presence (3 users, 8 connections)")
        }
        #expect(ok, "d adds a device:\n\(screen)")
        try await tmux.send("x")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("crashed (no goodbye)") && $0.contains("Presence (3 users, 7 connections)")
        }
        #expect(ok, "x crashes one, and the server ends its presence:\n\(screen)")

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
