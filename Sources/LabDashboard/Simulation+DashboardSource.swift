import Dashboard
import DashboardRuntime
import PresenceLab

/// A live simulation as the dashboard's source: its snapshots and views, and what keys ask of it.
extension Simulation: DashboardSource {
    /// Carries out what a key asked of the session.
    public func perform(_ effect: DashboardEffect) {
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
        case .useTheme, .quit, .replay: break
        }
    }

    /// Nothing: a live session's events arrive as they happen.
    public func replayed() -> (status: ReplayStatus, events: [WatchEvent])? { nil }

    /// Never: a live session does not fail as a source.
    public var failure: String? { nil }
}

extension SessionRecorder: SnapshotRecorder {}
