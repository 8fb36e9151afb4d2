import LabModel
import PresenceModel
import RTDBCore

extension DashboardRenderer {
    /// When the server last confirmed what `pane` shows, if that is stale now.
    ///
    /// Stale: the connection that feeds it is down, or has heard nothing for longer than the
    /// snapshot's ``SimulationSnapshot/staleAfter``. The time is the machine's clock (`nil` inside:
    /// it never heard). Nil while it is live, and for panes this device keeps itself (its
    /// queue, the events).
    func staleness(of pane: Pane, _ state: DashboardState) -> UnixTime?? {
        guard let snapshot = state.snapshot else { return nil }
        switch pane {
        case .presence:
            guard let feed = snapshot.presenceFeed else { return nil }
            return snapshot.staleSince(feed, now: state.now)
        case .clock:
            guard let device = snapshot.thisDevice else { return nil }
            // This device's connection keeps its own clock, moved by `+`/`-`.
            guard let since = snapshot.staleSince(device.status, now: state.now + device.clockOffset) else {
                return nil
            }
            return .some(since.map { $0 - device.clockOffset })
        case .connection, .pending, .events:
            return nil
        }
    }

    /// The mark a stale pane's title carries: since when its data has not been confirmed, the
    /// longest wording that fits in `room` columns (never cut inside a time).
    func staleMark(_ since: UnixTime?, _ state: DashboardState, room: Int) -> Segment {
        var wordings = ["  stale: never heard from the server", "  stale: never heard", "  stale"]
        if let since {
            let time = Format.timeOfDay(since, zone: state.timeZone)
            wordings = [
                "  stale: as of \(time) (\(Format.duration(state.now - since)) ago)", "  stale since \(time)",
                "  stale",
            ]
        }
        return Segment(wordings.first { CellGrid.columns(of: $0) <= room } ?? "", .warn)
    }
}
