import Foundation
import RTDBTestSupport
import Testing

/// The Cache view (C) in a real terminal (tmux): this device's disk cache as its engine reports it.
@Suite(.serialized) struct DashboardCacheViewTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func cOpensTheCacheViewAndEscClosesIt() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 2 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) }
        #expect(ok, "settled:\n\(screen)")
        // A note written, so that the cache holds more than presence.
        try await tmux.send("w")
        try await tmux.send("C")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("Cache: this device's disk cache") && $0.contains("BYTES BY PATH") && $0.contains("/users")
                && $0.contains("TRACKED QUERIES (") && $0.contains("NEXT PRUNE")
        }
        #expect(ok, "C shows the cache by path, the tracked queries and the next prune:\n\(screen)")
        try await tmux.send("Escape")
        (ok, screen) = try await tmux.waitFor { !$0.contains("BYTES BY PATH") && $0.contains("Pending writes") }
        #expect(ok, "Esc closes it:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }
}
