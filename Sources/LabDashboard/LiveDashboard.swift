import Dashboard
import DashboardRuntime
import Logging
import PresenceLab
import RTDBCore

/// A live simulation wired to a dashboard loop: its events go to the loop's inbox and wake it.
///
/// `presencetop` draws it with ncurses; tests draw it in memory (`MemoryTerminal`), through the
/// same wiring.
public struct LiveDashboard: Sendable {
    /// The simulation the dashboard shows and drives.
    public let simulation: Simulation
    /// Where its events wait for the loop.
    public let inbox: ActionInbox
    /// Wakes the loop when an event arrives.
    public let wake: WakePipe

    /// Starts the simulation with its events wired to a new inbox and wake pipe.
    public static func start(_ options: SimulationOptions, logger: Logger) async throws -> LiveDashboard {
        let wake = try WakePipe()
        let inbox = ActionInbox()
        let simulation = try await Simulation.start(options, logger: logger) { event in
            inbox.append(.event(event))
            wake.signal()
        }
        return LiveDashboard(simulation: simulation, inbox: inbox, wake: wake)
    }

    /// A loop that draws this simulation on the terminal `makeTerminal` makes.
    public func loop(
        themeName: String, catalog: ThemeCatalog, bindings: [KeyBinding] = KeyMap.bindings,
        recorder: (any SnapshotRecorder)? = nil, logger: Logger,
        time: TimeSource = .system, remembersTheme: Bool = true,
        afterFrame: (@Sendable (DashboardState) -> Void)? = nil,
        makeTerminal: @escaping @Sendable (Theme) -> any DashboardTerminal
    ) -> DashboardLoop {
        DashboardLoop(
            source: simulation, inbox: inbox, wake: wake, themeName: themeName, catalog: catalog,
            bindings: bindings, recorder: recorder, logger: logger, time: time, remembersTheme: remembersTheme,
            afterFrame: afterFrame, makeTerminal: makeTerminal)
    }
}
