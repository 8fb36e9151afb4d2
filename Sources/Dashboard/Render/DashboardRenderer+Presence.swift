import PresenceModel
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// Every user: online or not, connections with their devices and ages (suspect ones marked),
    /// and `lastOnline` in server time; sorted, filtered, scrolled to the selection.
    func drawPresence(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard let snapshot = state.snapshot else {
            grid.put(Segment.waiting(state), x: rect.x + 1, y: rect.y, limit: rect.maxX, glyphs: glyphs)
            return
        }
        let index = state.currentPresence
        let users = index.shown
        let serverNow = snapshot.serverTimeEstimate
        let wide = rect.width >= 100
        let nameWidth = min(18, max(6, index.shownCounts.longestName) + 3)
        // Only the rows in the window are formatted (a population can be thousands of users).
        let rows = state.presenceRows(index)
        // Several databases: which are stale now (their users' rows say so).
        let staleFeeds = snapshot.staleFeeds(now: state.now)
        func format(_ row: PresenceRow) -> [Segment] {
            let user = users[row.user]
            if let connection = row.connection {
                return detail(user.connections[connection], snapshot, serverNow, state)
            }
            var line = [Segment(Format.fit(user.id, nameWidth, ellipsis: glyphs.ellipsis), .text)]
            if user.connections.contains(where: { snapshot.ownEntryKeys.contains($0.id) }) {
                line[0] = Segment(
                    Format.fit("\(user.id) \(glyphs.mine)", nameWidth, ellipsis: glyphs.ellipsis), .accent)
            }
            if let problem = user.problem {
                // Listed, never dropped: what the layout could not read, by kind (never the value).
                line.append(Segment("? unfit ", .warn))
                line.append(Segment("  -  ", .muted))
                line.append(Segment("fits no layout: \(problem)", .warn))
                return line
            }
            // A user a lost database lists keeps what it said last, marked, never turned offline;
            // online on a live one is online.
            let staleSources = user.onlineSources & ~staleFeeds != 0 ? 0 : user.sources & staleFeeds
            if staleSources != 0 {
                line.append(Segment("\(glyphs.partial) \(user.isOnline ? "online " : "offline")", .warn))
            } else {
                line.append(
                    user.isOnline ? Segment("\(glyphs.on) online ", .good) : Segment("\(glyphs.off) offline", .muted))
            }
            // A status node states online or offline and lists no connections.
            line.append(Segment(user.reportedOnline == nil ? "  \(user.connections.count)  " : "  -  ", .text))
            if user.reportedOnline == true {
                if wide { line.append(Segment(Format.fit("—", 24), .muted)) }
                let since = user.onlineSince.map {
                    "since \(Format.timeOfDay($0, zone: state.preferences.timeZone)) (\(Format.duration(serverNow - $0)))"
                }
                line.append(Segment("status online" + (since.map { " " + $0 } ?? ""), .text))
            } else if user.isOnline {
                if wide { line.append(Segment(Format.fit("—", 24), .muted)) }
                for (index, connection) in user.connections.enumerated() {
                    if index > 0 { line.append(Segment(" · ", .muted)) }
                    line += describe(connection, snapshot, serverNow)
                }
            } else if let last = user.lastOnline {
                let text =
                    "\(Format.timeOfDay(last, zone: state.preferences.timeZone)) (\(Format.duration(serverNow - last)) ago)"
                line.append(Segment(wide ? Format.fit(text, 24) : "last online " + text, .muted))
            } else {
                line.append(Segment("never online", .muted))
            }
            if staleSources != 0 { line.append(Segment("  stale: \(Self.databaseNames(staleSources))", .warn)) }
            return line
        }
        // The sorted column is marked (▾, as htop marks it).
        func column(_ name: String, _ key: PresenceSort) -> String {
            state.presence.sort == key ? name + String(glyphs.expanded) : name
        }
        var header = [
            Segment(Format.fit(column("USER", .name), nameWidth), .header),
            Segment(Format.fit(column("STATE", .state), 9), .header),
            Segment(column("  N", .connections) + (state.presence.sort == .connections ? " " : "  "), .header),
        ]
        if wide { header.append(Segment(Format.fit(column("LAST ONLINE (server)", .lastOnline), 24), .header)) }
        header.append(Segment("DEVICES", .header))
        grid.put([Segment(" ")] + header, x: rect.x, y: rect.y, limit: rect.maxX - 1, glyphs: glyphs)

        let visible = state.presenceCapacity(inside: rect)
        let window = state.presenceWindow(rows, capacity: visible)
        let first = window.lowerBound
        if rows.isEmpty {
            var message = state.presence.filter.isEmpty ? "no users yet" : "no user matches /\(state.presence.filter)"
            if state.presence.filter.isEmpty, !snapshot.usersFeed.loaded,
                snapshot.usersFeed.status?.phase.isConnected == false
            {
                // Nothing has been listed yet: not an empty list, a server not reached yet.
                message = "waiting for the server to list the users…"
            }
            if state.presence.filter.isEmpty, !snapshot.usersFeed.loaded,
                snapshot.usersFeed.status?.phase.isConnected == true
            {
                // A big first list arrives in fragments, then is read, for seconds: say so, with
                // how much is in while it arrives.
                message = "loading the list…"
                if let arriving = snapshot.usersFeed.status?.arriving {
                    let percent = arriving.of > 0 ? arriving.fragments * 100 / arriving.of : 0
                    let received = "\(Format.bytes(arriving.bytes)) received (\(percent) %)"
                    message =
                        arriving.entries > 0
                        ? "loading the list: \(Format.count(arriving.entries, "user")), \(Format.bytes(arriving.bytes)) (\(percent) %)"
                        : "loading the list: \(received)"
                }
            }
            if state.presence.filter.isEmpty, !snapshot.usersFeed.loaded, let refusal = snapshot.usersFeed.refusal {
                // The rules refuse the watcher: nothing is coming, and the pane says why.
                message = "the server refused the list: \(refusal)"
            }
            grid.put([Segment(" " + message, .muted)], x: rect.x, y: rect.y + 1, limit: rect.maxX, glyphs: glyphs)
        }
        for (offset, row) in rows[window].enumerated() {
            let y = rect.y + 1 + offset
            let selected =
                row.user == state.presence.selectedUser && row.connection == nil && state.panes.focused == .presence
            let marker = row.connection == nil ? " " : "  "
            grid.put([Segment(marker)] + format(row), x: rect.x, y: y, limit: rect.maxX - 1, glyphs: glyphs)
            if selected {
                grid.paint(Rect(x: rect.x, y: y, width: rect.width, height: 1), role: .selected)
                grid.cursor = GridPoint(x: rect.x, y: y)
            }
        }
        if first > 0 { grid.put(glyphs.fold("↑"), x: rect.maxX - 1, y: rect.y + 1, role: .muted) }
        if window.upperBound < rows.count {
            grid.put(glyphs.fold("↓"), x: rect.maxX - 1, y: rect.y + visible, role: .muted)
        }
        if state.presence.isEditingFilter {
            grid.put(
                [Segment(" /", .filter), Segment(state.presence.filter + "▏", .filter)], x: rect.x, y: rect.maxY - 1,
                limit: rect.maxX, glyphs: glyphs)
        }
        if state.presenceHasSummary(inside: rect) {
            drawPresenceSummary(&grid, y: rect.maxY - 1 - (state.presence.isEditingFilter ? 1 : 0), rect, state)
        }
    }

    /// Under the list: users online now of all, a sparkline of users online over time (a sample
    /// a second), its peak, and the connections where the layout lists them.
    private func drawPresenceSummary(_ grid: inout CellGrid, y: Int, _ rect: Rect, _ state: DashboardState) {
        let totals = state.currentPresence.allCounts
        let all = totals.users
        var tail = "  peak \(Format.grouped(state.samples.online.values.max() ?? totals.online))"
        if totals.listingConnections > 0 { tail += " · \(Format.count(totals.connections, "connection"))" }
        let head = " online \(Format.grouped(totals.online)) of \(Format.grouped(all))  "
        let room = rect.width - 1 - CellGrid.columns(of: head) - CellGrid.columns(of: tail)
        let spark = Sparkline.text(
            state.samples.online.values.map(Double.init), width: max(0, room), glyphs: glyphs, fromZero: true)
        grid.put(
            [Segment(head, .muted), Segment(spark, .graph), Segment(tail, .muted)], x: rect.x, y: y,
            limit: rect.maxX - 1, glyphs: glyphs)
    }

    /// The databases of `mask` by their places (`db 2, db 3`), as the Connection pane numbers them.
    static func databaseNames(_ mask: UInt64) -> String {
        (0..<64).filter { mask & (1 << UInt64($0)) != 0 }.map { "db \($0 + 1)" }.joined(separator: ", ")
    }

    private func describe(_ connection: UserPresence.Connection, _ snapshot: WatchSnapshot, _ serverNow: UnixTime)
        -> [Segment]
    {
        let own = snapshot.ownEntryKeys.contains(connection.id)
        var text = own ? "this device" : (connection.device ?? "connection")
        if let at = connection.connectedAt { text += " " + Format.shortDuration(serverNow - at) }
        var segments = [Segment(text, own ? .accent : .text)]
        if snapshot.isSuspect(entryKey: connection.id), let silence = snapshot.silence[connection.id] {
            segments.append(Segment(" (\(glyphs.partial) suspect \(Format.duration(silence)))", .warn))
        }
        return segments
    }

    private func detail(
        _ connection: UserPresence.Connection, _ snapshot: WatchSnapshot, _ serverNow: UnixTime,
        _ state: DashboardState
    ) -> [Segment] {
        var segments = [
            Segment("\(glyphs.expanded) ", .muted),
            Segment(Format.fit(connection.device ?? "connection", 12), .text),
        ]
        if let at = connection.connectedAt {
            segments.append(
                Segment(
                    "since \(Format.timeOfDay(at, zone: state.preferences.timeZone)) (\(Format.duration(serverNow - at)))  ",
                    .muted))
        }
        if let silence = snapshot.silence[connection.id] {
            let suspect = snapshot.isSuspect(entryKey: connection.id)
            segments.append(Segment("heard \(Format.duration(silence)) ago  ", suspect ? .warn : .muted))
        }
        segments.append(Segment("key \(connection.id)", .muted))
        return segments
    }
}
