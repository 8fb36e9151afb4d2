import Foundation
import RTDBTestSupport
import Testing

/// The views over the panes in a real terminal (tmux): the Cache view (C), this device's disk
/// cache as its engine reports it, the onDisconnect view (O), as the server judges it, and the
/// Rules view (S), from the server's coverage report.
@Suite(.serialized) struct DashboardOverlayTmuxTests {
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

    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func oShowsWhatTheServerWouldRunOnDisconnect() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 1 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) }
        #expect(ok, "settled:\n\(screen)")
        try await tmux.send("O")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("onDisconnect: what the server would run now") && $0.contains("runs as morgan")
                && $0.contains("/users/morgan/connections/") && $0.contains("/users/morgan/lastOnline")
        }
        #expect(ok, "O lists the presence flow's operations:\n\(screen)")
        let lines = screen.split(separator: "\n")
        for path in ["/users/morgan/connections/", "/users/morgan/lastOnline"] {
            #expect(lines.contains { $0.contains(path) && $0.contains(" yes") }, "\(path) would run:\n\(screen)")
        }
        // Offline, the server holds nothing of this connection: the view says it cannot ask.
        try await tmux.send("O")
        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("disconnected") }
        try await tmux.send("O")
        (ok, screen) = try await tmux.waitFor { $0.contains("the server could not be asked") }
        #expect(ok, "offline it says so:\n\(screen)")
        try await tmux.send("Escape")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }

    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func sShowsTheRulesAndNamesTheRuleThatRefusedAWrite() async throws {
        let (command, home) = try DashboardTmuxTests.command("--users 2 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 44)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) }
        #expect(ok, "settled:\n\(screen)")
        // r writes another user's presence: the server's rules refuse it.
        try await tmux.send("r")
        (ok, screen) = try await tmux.waitFor { $0.contains("permission_denied") || $0.contains("refused") }
        #expect(ok, "the write is refused:\n\(screen)")
        try await tmux.send("S")
        (ok, screen) = try await tmux.waitFor {
            $0.contains("Rules: how often each held") && $0.contains("presence.rules.json")
                && $0.contains("LATEST DENIALS (1 of 1)") && $0.contains("uid morgan")
                && $0.contains("refused by presence.rules.json:")
        }
        #expect(ok, "S shows the rules and the denial with its rule's place:\n\(screen)")
        // The .write rule of users/$uid held (presence) and failed once (the refused write).
        let lines = screen.split(separator: "\n")
        #expect(
            lines.contains { $0.contains(#"".write": "auth != null && auth.uid == $uid""#) && $0.contains(" 1 ") },
            "the .write line counts the refusal:\n\(screen)")
        try await tmux.send("Escape")
        (ok, screen) = try await tmux.waitFor { !$0.contains("LATEST DENIALS") && $0.contains("Pending writes") }
        #expect(ok, "Esc closes it:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }
}
