import Dashboard
import PresenceLab

/// What the dashboard loop draws from and sends effects to: a live simulation, or a recording
/// being replayed.
protocol DashboardSource: Sendable {
    /// Everything the panes show, now.
    func snapshot() -> SimulationSnapshot
    /// This device's disk cache, for the Cache view (nil: none).
    func cacheSummary() -> CacheSummary?
    /// This device's onDisconnect operations, for the onDisconnect view.
    func onDisconnectSummary() async -> OnDisconnectSummary
    /// The server's rules and their coverage, for the Rules view.
    func rulesSummary() async -> RulesSummary
    /// Carries out an effect a key asked for.
    func perform(_ effect: DashboardEffect)
    /// Takes a key before the dashboard does (a replay's cursor keys); true when taken.
    func take(_ key: KeyEvent) -> Bool
    /// A replay's cursor and keys, for the status row and the footer; nil for a live session.
    var status: ReplayStatus? { get }
    /// A replay's events up to its cursor, as of the last snapshot (nil: a live session, whose
    /// events arrive as they happen).
    var replayedEvents: [SimulationEvent]? { get }
    /// Why the source cannot go on (a recording that turned out unreadable), once that is known:
    /// the loop then ends with status 2.
    var failure: String? { get }
}

extension Simulation: DashboardSource {
    func perform(_ effect: DashboardEffect) {
        switch effect {
        case .toggleNetwork: toggleNetwork()
        case .toggleBlackhole: toggleBlackhole()
        case .toggleLatency: toggleLatency()
        case .queueWrites(let count): queueWrites(count)
        case .runTransaction: runTransaction()
        case .shiftClock(let delta): shiftClock(by: delta)
        case .toggleCredential: toggleCredential()
        case .writeForbidden: writeForbidden()
        case .retryDeadLetter(let id): retryDeadLetter(id: id)
        case .discardDeadLetter(let id): discardDeadLetter(id: id)
        case .reconnectNow: reconnectNow()
        case .addDevice: Task { await addDevice() }
        case .crashDevice: Task { await crashRandomDevice() }
        case .useTheme, .quit: break
        }
    }

    func take(_ key: KeyEvent) -> Bool { false }

    var status: ReplayStatus? { nil }

    var replayedEvents: [SimulationEvent]? { nil }

    var failure: String? { nil }
}
