import Foundation
import RTDBTestSupport
import Testing

/// `presencetop --scenario FILE` in a real terminal (tmux): the steps and verdicts as events.
@Suite(.serialized) struct DashboardScenarioTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aScenarioPlaysWithItsVerdictsAsEvents() async throws {
        let file = ScenarioProcessTests.scenarios.appendingPathComponent("presence-flow.toml").path
        let (command, home) = try DashboardTmuxTests.command("--memory --scenario \(file)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 140, height: 44)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("alex/phone network offline") }
        #expect(ok, "the steps show as events:\n\(screen)")
        (ok, screen) = try await tmux.waitFor(seconds: 60) {
            $0.contains("scenario \"presence flow\": PASS, 5 of 5 expectations held")
        }
        #expect(ok, "the verdict shows:\n\(screen)")
        #expect(screen.contains("✓ expectation"), "each expectation as it passes:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
    }
}
