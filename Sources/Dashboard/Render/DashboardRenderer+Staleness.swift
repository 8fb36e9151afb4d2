import PresenceModel
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// When the server last confirmed what `pane` shows, if that is stale now.
    ///
    /// Stale: the connection that feeds it is down, or has heard nothing for longer than the
    /// snapshot's ``WatchSnapshot/staleAfter``. The time is the machine's clock (`nil` inside:
    /// it never heard). Nil while it is live, and for panes this device keeps itself (its
    /// queue, the events).
    func staleness(of pane: Pane, _ state: DashboardState) -> UnixTime?? {
        guard let snapshot = state.snapshot else { return nil }
        switch pane {
        case .presence:
            if !snapshot.feeds.isEmpty {
                // Several databases: the pane is stale only when every one is (one lost database
                // marks its own users, ``feedsMark``), as of the last any was heard.
                let since = snapshot.feeds.map { snapshot.staleSince($0.status, now: state.now) }
                guard since.allSatisfy({ $0 != nil }) else { return nil }
                return .some(since.compactMap { $0 ?? nil }.max())
            }
            guard let feed = snapshot.usersFeed.status else { return nil }
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
            let time = Format.timeOfDay(since, zone: state.preferences.timeZone)
            wordings = [
                "  stale: as of \(time) (\(Format.duration(state.now - since)) ago)", "  stale since \(time)",
                "  stale",
            ]
        }
        return Segment(wordings.first { CellGrid.columns(of: $0) <= room } ?? "", .warn)
    }

    /// With several databases watched: which are stale, or not listed yet (`  stale: db 2`), by
    /// the numbers the Connection pane gives them; nothing while all are live.
    func feedsMark(_ snapshot: WatchSnapshot, _ state: DashboardState) -> Segment {
        let stale = snapshot.staleFeeds(now: state.now)
        var (loading, refused): (UInt64, UInt64) = (0, 0)
        for (index, feed) in snapshot.feeds.prefix(64).enumerated() {
            if feed.refusal != nil {
                refused |= 1 << UInt64(index)
            } else if !feed.listLoaded && feed.status.phase.isConnected {
                loading |= 1 << UInt64(index)
            }
        }
        var text = stale != 0 ? "  stale: \(Self.databaseNames(stale))" : ""
        if refused != 0 { text += "  refused: \(Self.databaseNames(refused))" }
        if loading != 0 { text += "  loading: \(Self.databaseNames(loading))" }
        return Segment(text, stale | refused != 0 ? .warn : .title)
    }
}
