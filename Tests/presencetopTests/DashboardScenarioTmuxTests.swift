import Foundation
import RTDBCore
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

/// `presencetop --record FILE` in a real terminal: what the session showed, as JSON lines.
@Suite(.serialized) struct DashboardRecordTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aRecordingHoldsPresenceTheConnectionAndTheQueue() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.jsonl")
        let (command, home) = try DashboardTmuxTests.command("--users 1 --churn 0 --memory --record \(file.path)")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { DashboardTmuxTests.isSettled($0) }
        #expect(ok, "settled:\n\(screen)")
        // Offline, a write waits in the queue; back online, it drains.
        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("disconnected") }
        try await tmux.send("w")
        (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes (1)") }
        #expect(ok, "a write queued:\n\(screen)")
        try await tmux.send("n")
        (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes (0)") && DashboardTmuxTests.isSettled($0) }
        #expect(ok, "drained:\n\(screen)")
        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")

        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(String($0))
        }
        #expect(lines.first?["type"] == "start" && lines.first?["version"] == 1)
        let times = lines.compactMap { $0["t"]?.intValue }
        #expect(times.count == lines.count && times == times.sorted(), "every line has a time, in order")
        let phases = lines.filter { $0["type"] == "connection" }.compactMap { $0["state"]?["phase"]?.stringValue }
        // Connected, then cut off by n, then connected again (the first lines may be from before
        // the first connection).
        let connected = phases.firstIndex(of: "connected") ?? phases.count
        #expect(
            phases.dropFirst(connected).contains { $0 == "waiting" || $0 == "offline" } && phases.last == "connected",
            "\(phases)")
        let queues = lines.filter { $0["type"] == "queue" }.compactMap { $0["state"]?["pending"]?.arrayValue?.count }
        #expect(queues.contains(1) && queues.last == 0, "\(queues)")
        #expect(lines.contains { $0["type"] == "presence" && $0["user"] == "morgan" })
    }
}
