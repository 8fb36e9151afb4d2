import Dashboard
import WatchModel

/// What the dashboard loop draws from and sends effects to: a live simulation, or a recording
/// being replayed.
public protocol DashboardSource: Sendable {
    /// Everything the panes show, now.
    func snapshot() -> WatchSnapshot
    /// This device's disk cache, for the Cache view (nil: none).
    func cacheSummary() async -> CacheSummary?
    /// This device's onDisconnect operations, for the onDisconnect view.
    func onDisconnectSummary() async -> OnDisconnectSummary
    /// The server's rules and their coverage, for the Rules view.
    func rulesSummary() async -> RulesSummary
    /// Carries out an effect a key asked for (a replay's cursor moves among them).
    func perform(_ effect: DashboardEffect)
    /// A replay's cursor and its events up to the cursor, as of the last snapshot (nil: a live
    /// session, whose events arrive as they happen).
    func replayed() -> (status: ReplayStatus, events: [WatchEvent])?
    /// Why the source cannot go on (a recording that turned out unreadable), once that is known:
    /// the loop then ends with status 2.
    var failure: String? { get }
}

/// What is shown, kept as it is shown (`--record`).
public protocol SnapshotRecorder: Sendable {
    /// Keeps `snapshot`.
    func observe(_ snapshot: WatchSnapshot)
    /// Why recording stopped, once it has.
    var failure: String? { get }
    /// Where it records.
    var file: String { get }
}
