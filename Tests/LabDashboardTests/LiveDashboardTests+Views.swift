import Dashboard
import DashboardRuntime
import LabDashboard
import Testing

/// The views over the panes on a live simulation, in memory: the Cache view (C), this device's
/// disk cache as its engine reports it, the onDisconnect view (O), as the server judges it, and
/// the Rules view (S), from the server's coverage report.
extension LiveDashboardTests {
    @Test func cOpensTheCacheViewAndEscClosesIt() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            width: 120, height: 36,
            [
                // A note written, so that the cache holds more than presence.
                LiveDashboard.settled, LiveDashboard.keys("wC"),
                .until("the cache by path, the tracked queries and the next prune") {
                    $0.contains("Cache: this device's disk cache") && $0.contains("BYTES BY PATH")
                        && $0.contains("/users") && $0.contains("TRACKED QUERIES (") && $0.contains("NEXT PRUNE")
                },
                .keys([.escape]),
                .until("Esc closes it") { !$0.contains("BYTES BY PATH") && $0.contains("Pending writes") },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
    }

    @Test func oShowsWhatTheServerWouldRunOnDisconnect() async throws {
        @Sendable func wouldRun(_ screen: String) -> Bool {
            let lines = screen.split(separator: "\n")
            return ["/users/morgan/connections/", "/users/morgan/lastOnline"].allSatisfy { path in
                lines.contains { $0.contains(path) && $0.contains(" yes") }
            }
        }
        let (status, terminal) = try await LiveDashboard.run(
            users: 1, width: 120, height: 36,
            [
                LiveDashboard.settled, LiveDashboard.keys("O"),
                .until("the presence flow's operations, each that would run") {
                    $0.contains("onDisconnect: what the server would run now") && $0.contains("runs as morgan")
                        && wouldRun($0)
                },
                // Offline, the server holds nothing of this connection: the view says it cannot ask.
                LiveDashboard.keys("On"), .until("offline") { $0.contains("disconnected") }, LiveDashboard.keys("O"),
                .until("it cannot ask offline") { $0.contains("the server could not be asked") },
                .keys([.escape]), LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
    }

    @Test func sShowsTheRulesAndNamesTheRuleThatRefusedAWrite() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            width: 120, height: 44,
            [
                // r writes another user's presence: the server's rules refuse it.
                LiveDashboard.settled, LiveDashboard.keys("r"),
                .until("the write refused") { $0.contains("1 refused") }, LiveDashboard.keys("S"),
                .until("the rules and the denial with its rule's place") {
                    $0.contains("Rules: how often each held") && $0.contains("presence.rules.json")
                        && $0.contains("LATEST DENIALS (1 of 1)") && $0.contains("uid morgan")
                        && $0.contains("refused by presence.rules.json:")
                },
                .keys([.escape]),
                .until("Esc closes it") { !$0.contains("LATEST DENIALS") && $0.contains("Pending writes") },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
        // The .write rule of users/$uid held (presence) and failed once (the refused write).
        let rules = terminal.frames.map(\.text).first { $0.contains("LATEST DENIALS (1 of 1)") } ?? ""
        #expect(
            rules.split(separator: "\n").contains {
                $0.contains(#"".write": "auth != null && auth.uid == $uid""#) && $0.contains(" 1 ")
            }, "the .write line counts the refusal:\n\(rules)")
    }

    /// The write queue's bound on screen: the pending pane's title shows the bytes used of it, and
    /// writes past it are refused with a notice.
    @Test func writesPastTheBoundAreRefusedAndTheRestDrain() async throws {
        let (status, terminal) = try await LiveDashboard.run(
            users: 1, width: 120, height: 36, configure: { $0.thisDevice?.maxPendingBytes = 600 },
            [
                .until("the pending pane shows the bound") { LiveDashboard.isSettled($0) && $0.contains("of 600 B") },
                LiveDashboard.keys("n"), .until("offline") { $0.contains("disconnected") },
                // A hundred notes of about 47 bytes each: a dozen fit.
                LiveDashboard.keys("W"), .until("the refused writes told") { $0.contains("write queue full") },
                LiveDashboard.keys("n"),
                .until("back online, what was queued drains") {
                    $0.contains("● connected") && $0.contains("Pending writes (0)  0 B of 600 B")
                },
                LiveDashboard.keys("q"),
            ])
        expectNoMisses(terminal)
        #expect(status == 0)
        let told = terminal.frames.map(\.text).first { $0.contains("write queue full") } ?? ""
        #expect(!told.contains("Pending writes (100)"), "not all were queued:\n\(told)")
        #expect(told.contains("of 600 bytes"), "the notice names the queue's size:\n\(told)")
    }
}
