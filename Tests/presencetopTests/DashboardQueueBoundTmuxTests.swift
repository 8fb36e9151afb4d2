import Foundation
import RTDBTestSupport
import Testing

/// The write queue's bound on screen (`--max-pending-bytes`): the pending pane's title shows the
/// bytes used of it, and writes past it are refused with a notice, in a real terminal (tmux).
@Suite(.serialized) struct DashboardQueueBoundTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func writesPastTheBoundAreRefusedAndTheRestDrain() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 1 --churn 0 --max-pending-bytes 600")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) && $0.contains("of 600 B") }
        #expect(ok, "the pending pane shows the bound:\n\(screen)")

        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("disconnected") }
        #expect(ok, "n takes this device offline:\n\(screen)")
        // A hundred notes of about 47 bytes each: a dozen fit.
        try await tmux.send("W")
        (ok, screen) = try await tmux.waitFor { $0.contains("write queue full") }
        #expect(ok, "the refused writes are told:\n\(screen)")
        #expect(!screen.contains("Pending writes (100)"), "not all were queued:\n\(screen)")
        #expect(screen.contains("of 600 bytes"), "the notice names the queue's size:\n\(screen)")

        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("● connected") && $0.contains("Pending writes (0)")
                && $0.contains("Pending writes (0)  0 B of 600 B")
        }
        #expect(ok, "back online, what was queued drains:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }
}
