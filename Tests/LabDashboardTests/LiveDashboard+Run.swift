import Dashboard
import DashboardRuntime
import Foundation
import LabDashboard
import Logging
import PresenceLab
import Testing

extension LiveDashboard {
    /// Runs the dashboard on a live simulation (an embedded server on loopback, this device with
    /// its disk cache in a fresh folder) in a `width` × `height` memory terminal playing `script`;
    /// with `scenario`, its population, and its steps played as `--scenario` plays them.
    ///
    /// Returns the exit status and the terminal (its frames, and the `until` steps it missed).
    static func run(
        users: Int = 2, width: Int, height: Int, scenario: ScenarioFile? = nil,
        configure: (inout SimulationOptions) -> Void = { _ in }, _ script: [MemoryTerminal.Step]
    ) async throws -> (status: Int32, terminal: MemoryTerminal) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-dashboard-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = SimulationOptions()
        options.users = users
        options.devicesPerUser = 1
        options.conditions = .perfect
        options.thisDevice = SimulationOptions.ThisDevice(persistenceDirectory: folder)
        if let scenario { options.usePopulation(of: scenario) }
        configure(&options)
        // What the engine did, shown only if a step is missed.
        let log = RecentLog()
        let logger = log.logger(label: "live-dashboard", level: .debug)
        let live = try await LiveDashboard.start(options, logger: logger)
        let player = scenario.map { scenario in Task { _ = await live.simulation.play(scenario) } }
        defer { player?.cancel() }
        let terminal = MemoryTerminal(width: width, height: height, script: script)
        let loop = live.loop(
            themeName: "default", catalog: .standard(), logger: logger, time: terminal.time, remembersTheme: false,
            makeTerminal: { _ in terminal })
        let status = await loop.run(watchingSignals: false)
        await live.simulation.stop()
        if !terminal.misses.isEmpty { Issue.record("a step was missed; the run's last log lines:\n\(log.text)") }
        return (status, terminal)
    }

    /// Whether this device is connected with nothing pending and its own presence entry shows
    /// (written and acknowledged): a screen to start from.
    static func isSettled(_ screen: String) -> Bool {
        screen.contains("● connected") && screen.contains("Pending writes (0)")
            && screen.split(separator: "\n").contains { $0.contains("morgan") && $0.contains("this device") }
    }

    /// Until this device is settled.
    static let settled = MemoryTerminal.Step.until("a settled screen", holds: isSettled)

    /// These characters, one key each.
    static func keys(_ characters: String) -> MemoryTerminal.Step {
        .keys(characters.map { KeyEvent.character($0) })
    }
}

/// Records every `until` step a run missed, with its screen.
func expectNoMisses(_ terminal: MemoryTerminal, sourceLocation: SourceLocation = #_sourceLocation) {
    for miss in terminal.misses { Issue.record(Comment(rawValue: miss), sourceLocation: sourceLocation) }
}
