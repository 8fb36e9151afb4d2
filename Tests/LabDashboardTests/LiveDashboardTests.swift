import Dashboard
import DashboardRuntime
import Foundation
import LabDashboard
import PresenceLab
import Testing

/// The dashboard on a live simulation, in memory: the same loop and wiring as `presencetop`, a
/// real embedded server on loopback, keys from a script, and the screen read from the frames.
/// (The real terminal's own part, resize signals, Ctrl-C and restoring the screen, stays in tmux.)
///
/// One at a time: each runs a server and a population, and beside the rest of the suite on two
/// cores, more at once would starve the process tests' heartbeats.
@Suite(.serialized) struct LiveDashboardTests {
    @Test func itShowsPresenceQueuesWritesOfflineAndDrainsThem() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            users: 3, width: 120, height: 36,
            [
                .until("the four panes, settled") {
                    $0.contains("Connection") && $0.contains("Presence") && $0.contains("Clock skew")
                        && LiveDashboard.isSettled($0)
                },
                LiveDashboard.keys("n"), .until("n takes this device offline") { $0.contains("disconnected") },
                LiveDashboard.keys("wwwww"), .until("five writes waiting") { $0.contains("Pending writes (5)") },
                LiveDashboard.keys("n"),
                .until("back online, the queue drained") {
                    $0.contains("● connected") && $0.contains("Pending writes (0)")
                },
                LiveDashboard.keys("?"),
                .until("the help") { $0.contains("Help: keys") && $0.contains("queue 100 writes") },
                .keys([.escape]), .resize(width: 60, height: 20),
                .until("a 60×20 screen") {
                    $0.contains("Pending writes") && $0.contains("q quit")
                        && $0.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= 60 }
                },
                .resize(width: 30, height: 10), .until("a screen too small") { $0.contains("terminal too small") },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0, "q exits 0")
        #expect(terminal.isClosed, "the terminal is given back")
    }

    /// Was: at 80×24 the help was cut, did not scroll, and `n` toggled the network behind it.
    @Test func theHelpScrollsAndKeepsItsKeysAt80x24() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            users: 1, width: 80, height: 24,
            [
                .until("connected") { $0.contains("● connected") }, LiveDashboard.keys("?"),
                .until("the help says there is more") { $0.contains("Help: keys") && $0.contains("more below") },
                LiveDashboard.keys("nG"),
                .until("G scrolls to the end") { $0.contains("quit (also Ctrl-C)") && !$0.contains("more below") },
                .keys([.escape]), .until("the help closed") { !$0.contains("Help: keys") }, .idle, .idle,
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
        #expect(
            terminal.screen.contains("● connected") && terminal.screen.contains("link up"),
            "n did nothing behind the help:\n\(terminal.screen)")
    }

    /// A refused write can be sent again (R) or forgotten (X), as the API allows.
    @Test func refusedWritesAreRetriedAndForgottenWithKeys() async throws {
        @Sendable func refusals(_ screen: String) -> Int {
            screen.components(separatedBy: "refused: permission_denied").count - 1
        }
        let (status, terminal) = try await LiveDashboard.run(
            users: 1, width: 160, height: 40,
            [
                LiveDashboard.settled, LiveDashboard.keys("r"),
                .until("r: a refused write") { $0.contains("Pending writes (0)") && $0.contains("1 refused") },
                LiveDashboard.keys("X"),
                .until("X forgets it") { $0.contains("Pending writes (0) ") && !$0.contains("1 refused") },
                LiveDashboard.keys("r"), .until("r again") { refusals($0) == 2 && $0.contains("1 refused") },
                LiveDashboard.keys("R"),
                .until("R sends it again, and the rules refuse it again") {
                    refusals($0) == 3 && $0.contains("1 refused")
                },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
    }
}

extension LiveDashboardTests {
    /// A scenario file plays with its steps and verdicts as events (`--scenario`).
    @Test func aScenarioPlaysWithItsVerdictsAsEvents() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios/presence-flow.toml")
        let scenario = try ScenarioFile(toml: try String(contentsOf: file, encoding: .utf8), file: file.path)
        let (status, terminal) = try await LiveDashboard.run(
            width: 140, height: 44, scenario: scenario,
            [
                // A step's event may scroll out of the pane before it is looked at: any will do.
                .until("the steps as events") { $0.contains("▸ ") && $0.contains(" s alex/") },
                // Its verdict, whichever: whether the flow holds under this machine's load is the
                // scenario tests' concern (ScenarioProcessTests); here, that it is shown.
                .until("the verdict", within: .seconds(60)) {
                    $0.contains("scenario \"presence flow\": ") && $0.contains(" of 5 expectations held")
                },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
        #expect(
            terminal.frames.contains { $0.text.contains("✓ expectation") || $0.text.contains("✗ expectation") },
            "each expectation as it is judged")
    }
}
