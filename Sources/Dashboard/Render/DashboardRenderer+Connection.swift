import PresenceModel
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// This device: connected or not, the phase, the link, the round trip, when the server was
    /// last heard from, the bytes, the session and a strip of recent history.
    func drawConnection(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard let device = state.snapshot?.thisDevice else {
            if let snapshot = state.snapshot, snapshot.access != WatchSnapshot.Access() {
                drawWatcher(&grid, rect, snapshot, state)
            } else {
                grid.put(Segment.waiting(state), x: rect.x + 1, y: rect.y, limit: rect.maxX, glyphs: glyphs)
            }
            return
        }
        let now = state.now
        let status = device.status
        var lines: [[Segment]] = []
        // Line 1: the value of .info/connected, and the phase.
        var first: [Segment]
        switch status.phase {
        case .connected:
            first = [Segment("\(glyphs.on) connected", .good)]
            if let since = status.connectedAt {
                first.append(Segment("  since \(Format.timeOfDay(since, zone: state.preferences.timeZone))", .muted))
                first.append(Segment(" (\(Format.duration(now + device.clockOffset - since)))", .muted))
            }
        case .connecting(let attempt):
            first = [
                Segment("\(glyphs.off) disconnected", .bad), Segment("  connecting (attempt \(attempt))", .warn),
            ]
        case .waitingToRetry(let attempt, let retryAt, let reason):
            let wait = retryAt.map { " in \(Format.duration($0 - now - device.clockOffset))" } ?? ""
            first = [
                Segment("\(glyphs.off) disconnected", .bad), Segment("  attempt \(attempt)\(wait)", .warn),
                Segment(" · \(reason)", .muted),
            ]
        case .offline:
            first = [Segment("\(glyphs.off) disconnected", .bad), Segment("  offline", .muted)]
        }
        lines.append(first)
        // Line 2: the link (a standalone one's, when attached to it: the keys drive that one).
        var link: [Segment]
        if let proxy = device.proxy {
            if let remote = proxy.link {
                link = [
                    Segment("proxy ", .muted), Segment(remote.mode.rawValue, remote.mode == .up ? .good : .bad),
                    Segment(" · \(remote.conditions)", .text),
                ]
            } else {
                link = [Segment("proxy ", .muted), Segment(proxy.problem ?? "reading…", .warn)]
            }
        } else if !(state.snapshot?.access.linkInPath ?? true) {
            link = [Segment("no link", .muted), Segment(" · TLS goes straight to the server", .muted)]
        } else {
            let mode = device.link.mode
            link = [Segment("link ", .muted), Segment(mode.rawValue, mode == .up ? .good : .bad)]
            link.append(Segment(" · \(device.link.conditions)\(device.isSlow ? " (slow)" : "")", .text))
        }
        if let rtt = status.lastRoundTrip { link.append(Segment("   RTT \(Format.milliseconds(rtt))", .text)) }
        lines.append(link)
        // With several databases watched, each one's watcher, before the rest of this device's.
        if let snapshot = state.snapshot { lines += feedLines(snapshot, state) }
        // Line 3: when the server was last heard from (it climbs under a blackhole), and bytes.
        var heard: [Segment] = [Segment("heard from server ", .muted)]
        if let last = status.lastHeardAt {
            let silence = now + device.clockOffset - last
            let role: StyleRole = status.phase.isConnected && silence > Self.silenceWarning ? .warn : .text
            heard.append(Segment("\(Format.duration(silence)) ago", role))
        } else {
            heard.append(Segment("never", .muted))
        }
        if state.snapshot?.access.linkInPath ?? true {
            heard.append(
                Segment(
                    "   up \(Format.bytes(device.link.bytesUp))  down \(Format.bytes(device.link.bytesDown))", .muted))
        }
        lines.append(heard)
        // Line 4: history.
        let stripWidth = max(0, rect.width - 10)
        lines.append([Segment("history ", .muted)] + historyStrip(state.samples.connection.values, width: stripWidth))
        // Line 5: who and which session.
        let access = state.snapshot?.access ?? WatchSnapshot.Access()
        var who: [Segment] = [Segment("as ", .muted), Segment(access.identity ?? device.user, .accent)]
        if access.identity != nil {
            // The user's own credentials: their provider renews them, nothing to count down here.
        } else if device.credentialExpired {
            who.append(Segment("  credential expired: writes paused", .warn))
        } else if let expiresAt = device.credentialExpiresAt {
            let left = expiresAt - state.now
            who.append(
                Segment(
                    "  token until \(Format.timeOfDay(expiresAt, zone: state.preferences.timeZone)) (\(Format.shortDuration(left)))",
                    left < Self.credentialWarning ? .warn : .muted))
        }
        if case .connected(let session) = status.phase {
            who.append(Segment("   session \(session.prefix(8))\(glyphs.ellipsis)", .muted))
        }
        lines.append(who)
        for (row, line) in lines.prefix(rect.height).enumerated() {
            grid.put([Segment(" ")] + line, x: rect.x, y: rect.y + row, limit: rect.maxX - 1, glyphs: glyphs)
        }
    }

    /// Silence from a connected server past this shows as a warning (a blackhole, a stall).
    static let silenceWarning: Duration = .seconds(5)
    /// A credential expiring within this shows as a warning.
    static let credentialWarning: Duration = .seconds(300)

    private func historyStrip(_ marks: [ConnectionMark], width: Int) -> [Segment] {
        marks.suffix(width).map { mark in
            switch mark {
            case .connected: Segment(String(glyphs.levels[7]), .good)
            case .blackholed: Segment(String(glyphs.levels[3]), .warn)
            case .connecting: Segment(String(glyphs.levels[1]), .warn)
            case .disconnected: Segment(String(glyphs.levels[0]), .bad)
            }
        }
    }

    /// Without a device of its own (read-only): the database, who watches it, and the watching
    /// connection.
    private func drawWatcher(
        _ grid: inout CellGrid, _ rect: Rect, _ snapshot: WatchSnapshot, _ state: DashboardState
    ) {
        var lines: [[Segment]] = [
            [Segment("database ", .muted), Segment(snapshot.server, .text)],
            [
                Segment("as ", .muted),
                Segment(
                    Format.fit(
                        snapshot.access.identity ?? "an emulator user", max(1, rect.width - 4),
                        ellipsis: glyphs.ellipsis),
                    .text),
            ],
        ]
        if snapshot.access.isReadOnly {
            lines.append([
                Segment("read-only", .warn), Segment(": writes nothing (--device to take part)", .muted),
            ])
        }
        if !snapshot.feeds.isEmpty {
            // Each database names its own, and who its watcher is.
            lines.removeFirst(2)
            lines += feedLines(snapshot, state)
        } else {
            lines.append(watchingLine(snapshot.usersFeed.status))
        }
        for (row, line) in lines.prefix(rect.height).enumerated() {
            grid.put(line, x: rect.x + 1, y: rect.y + row, limit: rect.maxX, glyphs: glyphs)
        }
    }

    /// One line per watched database, numbered as the Presence pane names them (`db 2`): its
    /// watcher's state, the users it lists, and since when it is stale.
    func feedLines(_ snapshot: WatchSnapshot, _ state: DashboardState) -> [[Segment]] {
        snapshot.feeds.enumerated().map { index, feed in
            var line = [Segment("db \(index + 1) ", .muted)]
            let stale = snapshot.staleSince(feed.status, now: state.now)
            var users = Segment(feed.listLoaded ? "  \(Format.count(feed.users, "user"))" : "  loading…", .muted)
            if let refusal = feed.refusal { users = Segment("  list refused: \(refusal)", .bad) }
            switch (feed.status.phase, stale) {
            case (.connected, nil):
                line += [Segment("\(glyphs.on) ", .good), Segment(feed.name, .text), users]
            case (.connected, .some(let since)):
                let when =
                    since.map { "as of \(Format.timeOfDay($0, zone: state.preferences.timeZone))" } ?? "never heard"
                line += [
                    Segment("\(glyphs.partial) ", .warn), Segment(feed.name, .text), Segment("  stale, \(when)", .warn),
                ]
            case (.waitingToRetry(_, _, let reason), _):
                line += [
                    Segment("\(glyphs.off) ", .bad), Segment(feed.name, .text), Segment("  lost: \(reason)", .bad),
                ]
            default:
                line += [Segment("\(glyphs.off) ", .warn), Segment(feed.name, .text), Segment("  connecting…", .warn)]
            }
            if feed.identity != WatchedFeed.emulatorIdentity { line.append(Segment(" as \(feed.identity)", .muted)) }
            return line
        }
    }

    /// The watcher's state, for one watched database.
    private func watchingLine(_ feed: ConnectionStatus?) -> [Segment] {
        switch feed?.phase {
        case .connected?: [Segment("\(glyphs.on) watching", .good)]
        case .waitingToRetry(_, _, let reason)?:
            [Segment("\(glyphs.off) not watching", .bad), Segment(" · \(reason)", .muted)]
        default: [Segment("\(glyphs.off) connecting…", .warn)]
        }
    }
}

extension Segment {
    /// What a pane shows before the first snapshot.
    static func waiting(_ state: DashboardState) -> [Segment] {
        guard let snapshot = state.snapshot else { return [Segment("starting…", .muted)] }
        if snapshot.access.isReadOnly { return [Segment("read-only: this dashboard writes nothing here", .muted)] }
        return [Segment("no device of its own (population only)", .muted)]
    }
}
