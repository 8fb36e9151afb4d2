import Dashboard
import Foundation
import LabDashboard
import LinkSim
import Logging
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Synchronization
import WatchModel

/// A simulation on a ``SimulatedStage`` on a test clock, and the dashboard's state fed by it: keys
/// go through the reducer, their effects to the simulation, and the screen is rendered from the
/// latest snapshot.
final class SimulatedLab: Sendable {
    /// 2026-01-01T00:00:00Z.
    static let start = UnixTime(millisecondsSince1970: 1_767_225_600_000)

    let time: TestTime
    let stage: SimulatedStage
    let simulation: Simulation
    let folder: URL
    private let state: Mutex<DashboardState>

    private init(time: TestTime, stage: SimulatedStage, simulation: Simulation, folder: URL) {
        self.time = time
        self.stage = stage
        self.simulation = simulation
        self.folder = folder
        state = Mutex(DashboardState(width: 140, height: 44))
    }

    /// `users` × 2 devices and this device (its queue and cache in a fresh folder), a 5 s
    /// heartbeat, links of 20 ms ± 10 ms.
    static func start(users: Int) async throws -> SimulatedLab {
        let time = TestTime(start: start)
        let stage = SimulatedStage(server: SimulatedServer(time: time.source), time: time.source)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-lab-\(UUID())")
        var options = SimulationOptions.simulated(on: stage)
        options.users = users
        options.devicesPerUser = 2
        options.heartbeatTimeout = .seconds(5)
        options.conditions = LinkConditions(latency: .milliseconds(20), jitter: .milliseconds(10))
        options.thisDevice = SimulationOptions.ThisDevice(persistenceDirectory: folder)
        var logger = Logger(label: "simulated-lab")
        logger.logLevel = .critical
        let simulation = try await Simulation.start(options, logger: logger)
        return SimulatedLab(time: time, stage: stage, simulation: simulation, folder: folder)
    }

    /// The databases whose queues a step drains: every device's, this one's.
    private var databases: [Database] {
        simulation.population.devices.map(\.database) + [simulation.thisDevice?.database].compactMap { $0 }
    }

    /// Presses `key` `times` times: the reducer's effects go to the simulation.
    func press(_ key: Character, times: Int = 1) {
        for _ in 0..<times {
            let effects = state.withLock { DashboardReducer.reduce(&$0, .key(.character(key))) }
            for effect in effects { simulation.perform(effect) }
        }
    }

    /// The screen as the latest snapshot draws it.
    func render() -> String {
        let snapshot = simulation.snapshot()
        return state.withLock { state in
            _ = DashboardReducer.reduce(&state, .snapshot(snapshot))
            return DashboardRenderer().render(state).text
        }
    }

    /// The screen last rendered.
    var screen: String { state.withLock { DashboardRenderer().render($0).text } }

    /// Moves the clock on 100 ms at a time, each device's queue drained after each step, until the
    /// screen shows what `holds` looks for, at most by `limit` of the test's time.
    func run(upTo limit: Duration, until holds: (String) -> Bool) async -> Bool {
        var passed = Duration.zero
        while true {
            for database in databases { await database.barrier() }
            if holds(render()) { return true }
            guard passed < limit else { return false }
            await time.advance(by: .milliseconds(100))
            passed += .milliseconds(100)
        }
    }

    /// Whether this device is connected with nothing pending, and presence shows every device
    /// once and no ghost.
    func isSettled(_ screen: String) -> Bool {
        screen.contains("● connected") && screen.contains("Pending writes (0)") && simulation.isSettled
    }

    /// Stops the simulation and its server.
    func stop() async { await simulation.stop() }

    /// Removes this device's folder.
    func removeFolder() { try? FileManager.default.removeItem(at: folder) }
}
