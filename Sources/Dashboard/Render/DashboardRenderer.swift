import PresenceModel
import RTDBCore
import WatchModel

/// Draws a ``DashboardState`` into a ``CellGrid``: a pure function of the state.
public struct DashboardRenderer: Sendable {
    /// The characters to draw with.
    public let glyphs: Glyphs

    /// Makes a renderer.
    public init(glyphs: Glyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// The screen for `state`.
    public func render(_ state: DashboardState) -> CellGrid {
        var grid = CellGrid(width: state.width, height: state.height)
        let layout = state.layout
        guard !layout.isTooSmall else {
            drawTooSmall(&grid)
            return grid
        }
        for pane in layout.panes {
            guard let rect = layout.rect(for: pane) else { continue }
            let stale = staleness(of: pane, state)
            var title = title(of: pane, state)
            if let stale {
                // The box keeps its corners and a space either side of the title.
                let used = title.reduce(0) { $0 + CellGrid.columns(of: $1.text) }
                title.append(staleMark(stale, state, room: rect.width - 6 - used))
            }
            let box = Box(rect: rect, title: title, focused: state.panes.focused == pane)
            let inside = box.draw(in: &grid, glyphs: glyphs)
            guard !inside.isEmpty else { continue }
            switch pane {
            case .connection: drawConnection(&grid, inside, state)
            case .clock: drawClock(&grid, inside, state)
            case .presence: drawPresence(&grid, inside, state)
            case .pending: drawPending(&grid, inside, state)
            case .events: drawEvents(&grid, inside, state)
            }
            // What the server has not confirmed for a while is drawn dimmed, not as live.
            if stale != nil { grid.paint(inside, role: .muted) }
        }
        if let replay = state.replay {
            let text = " " + glyphs.fold(replay.cursor) + " "
            let width = min(state.width - 2, CellGrid.columns(of: text))
            grid.put(Format.fit(text, width, ellipsis: glyphs.ellipsis), x: 1, y: layout.noticeRow, role: .accent)
        } else if let notice = state.timeline.notice {
            let text = " " + glyphs.fold(notice.text) + " "
            let width = min(state.width - 2, CellGrid.columns(of: text))
            grid.put(Format.fit(text, width, ellipsis: glyphs.ellipsis), x: 1, y: layout.noticeRow, role: notice.role)
        }
        drawFooter(&grid, layout.footer, state)
        if state.help.isShown { drawHelp(&grid, state) }
        // The overlay's text width: its box, less the borders and a margin.
        let textWidth = min(grid.width - 2, 110) - 4
        switch state.views.shown {
        case .cache?:
            drawOverlay(
                &grid, title: "Cache: this device's disk cache", closing: "C", cacheLines(state, width: textWidth),
                state)
        case .onDisconnect?:
            drawOverlay(
                &grid, title: "onDisconnect: what the server would run now", closing: "O",
                onDisconnectLines(state, width: textWidth), state)
        case .rules?:
            drawOverlay(
                &grid, title: "Rules: how often each held, and what they refused", closing: "S",
                rulesLines(state, width: textWidth), state)
        case nil: break
        }
        return grid
    }

    /// A pane's title: its name, with counts where it has them.
    func title(of pane: Pane, _ state: DashboardState) -> [Segment] {
        switch pane {
        case .presence:
            // Before the first list, no count is true yet: it is loading (or waiting to connect).
            if let snapshot = state.snapshot, snapshot.feeds.isEmpty, !snapshot.usersFeed.loaded,
                snapshot.usersFeed.refusal == nil
            {
                return [Segment("Presence (loading…)", .title)]
            }
            // What the list shows: with a filter, the users that match out of all.
            let index = state.currentPresence
            let all = index.allCounts.users
            let totals = index.shownCounts
            var counts = [
                totals.users == all
                    ? Format.count(all, "user") : "\(Format.grouped(totals.users)) of \(Format.count(all, "user"))",
                "\(Format.grouped(totals.online)) online",
            ]
            // A layout that states online or offline (status) lists no connections to count.
            let layouts = state.snapshot?.layoutsListConnections ?? true
            if index.allCounts.totals.countedConnections(layoutsListConnections: layouts) != nil {
                counts.append(Format.count(totals.connections, "connection"))
            }
            var title = [
                Segment("Presence", .title),
                Segment(" (\(counts.joined(separator: ", ")))", .title),
            ]
            let unfit = index.allCounts.unfit
            if unfit > 0 { title.append(Segment("  \(unfit) unfit", .warn)) }
            if let snapshot = state.snapshot, !snapshot.feeds.isEmpty {
                title.append(feedsMark(snapshot, state))
            }
            if !state.presence.filter.isEmpty { title.append(Segment("  /\(state.presence.filter)", .filter)) }
            return title
        case .pending:
            let count = state.snapshot?.thisDevice?.pendingWrites.count ?? 0
            var title = [Segment("Pending writes (\(count))", .title)]
            if let device = state.snapshot?.thisDevice { title.append(queueUsage(device)) }
            // The dead letters' count shows at every size, also where their list does not fit.
            let dead = state.snapshot?.thisDevice?.deadLetters.count ?? 0
            if dead > 0 { title.append(Segment("  \(dead) refused", .bad)) }
            // Writes are refused while the store fails: say so where they would queue.
            if state.snapshot?.thisDevice?.storeFailing != nil { title.append(Segment("  store failing", .bad)) }
            return title
        case .connection:
            // What this is looking at: the server (embedded, or the --url one) and namespace.
            guard let snapshot = state.snapshot else { return [Segment(pane.title, .title)] }
            var title = [Segment(pane.title, .title)]
            if snapshot.access.isReadOnly { title.append(Segment(" read-only", .warn)) }
            title.append(Segment(" to \(snapshot.server)", .muted))
            if let identity = snapshot.access.identity { title.append(Segment(" as \(identity)", .muted)) }
            return title
        case .events:
            // Scrolled back from the newest: where in the timeline this is.
            let skip = state.panes.scroll[.events] ?? 0
            guard skip > 0 else { return [Segment(pane.title, .title)] }
            return [
                Segment(pane.title, .title),
                Segment("  \(skip) newer above (\(state.timeline.events.count) in all)", .muted),
            ]
        default:
            return [Segment(pane.title, .title)]
        }
    }

    private func drawTooSmall(_ grid: inout CellGrid) {
        let need = "terminal too small (need \(DashboardLayout.minimumWidth)×\(DashboardLayout.minimumHeight))"
        let have = "now \(grid.width)×\(grid.height)"
        for (offset, text) in [need, have].enumerated() {
            let folded = glyphs.fold(text)
            let width = CellGrid.columns(of: folded)
            let x = max(0, (grid.width - width) / 2)
            let y = max(0, grid.height / 2 - 1 + offset)
            grid.put(folded, x: x, y: y, role: offset == 0 ? .warn : .muted)
        }
    }

    private func drawFooter(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard rect.height > 0 else { return }
        grid.fill(rect, role: .footer)
        var segments: [Segment] = [Segment(" ")]
        if state.presence.isEditingFilter {
            segments = [
                Segment(" filter: ", .footer), Segment(state.presence.filter + "▏", .filter),
                Segment("   Enter keep · Esc clear", .footer),
            ]
        } else {
            // Help and quit always show; the others fill what is left, in the keymap's order.
            // Neighbours with one hint share an entry (`+/- clock`).
            // While a recording replays, its own keys stand in for the others.
            let shown = state.preferences.bindings.filter { binding in
                let essential = binding.command == .toggleHelp || binding.command == .quit
                return essential || binding.mode == (state.replay == nil ? .always : .replaying)
            }
            var entries: [(labels: [String], hint: String, essential: Bool)] = []
            for binding in shown {
                guard let hint = binding.hint else { continue }
                let essential = binding.command == .toggleHelp || binding.command == .quit
                if let last = entries.last, last.hint == hint, !essential {
                    entries[entries.count - 1].labels.append(binding.label)
                } else {
                    entries.append(([binding.label], hint, essential))
                }
            }
            let pieces = { (entry: (labels: [String], hint: String, essential: Bool)) in
                [Segment(entry.labels.joined(separator: "/"), .key), Segment(" \(entry.hint)  ", .footer)]
            }
            let essential = entries.filter(\.essential)
            let reserved = CellGrid.columns(of: essential.flatMap(pieces).map(\.text).joined())
            for entry in entries where !entry.essential {
                let piece = pieces(entry)
                let width = CellGrid.columns(of: (segments + piece).map(\.text).joined())
                if width + reserved > rect.width { break }
                segments += piece
            }
            segments += essential.flatMap(pieces)
        }
        grid.put(
            segments.map { Segment($0.text, $0.role == .text ? .footer : $0.role) }, x: rect.x, y: rect.y,
            limit: rect.maxX, glyphs: glyphs)
    }

    private func drawHelp(_ grid: inout CellGrid, _ state: DashboardState) {
        let bindings = state.bindingsInForce
        let labelWidth = bindings.map { CellGrid.columns(of: glyphs.fold($0.label)) }.max() ?? 1
        let lines = bindings.map { binding in
            Format.fit(glyphs.fold(binding.label), labelWidth) + "  " + glyphs.fold(binding.help)
        }
        let width = min(grid.width - 2, (lines.map { CellGrid.columns(of: $0) }.max() ?? 10) + 4)
        let height = min(grid.height - 2, lines.count + 3)
        let rect = Rect(x: (grid.width - width) / 2, y: (grid.height - height) / 2, width: width, height: height)
        grid.fill(rect, role: .overlay)
        let inside = Box(rect: rect, title: [Segment("Help: keys", .title)], focused: true).draw(
            in: &grid, glyphs: glyphs)
        let capacity = max(0, inside.height - 1)
        let first = min(max(0, state.help.scroll), max(0, lines.count - capacity))
        for (row, line) in lines.dropFirst(first).prefix(capacity).enumerated() {
            let label = String(line.prefix(labelWidth))
            let x = grid.put(label, x: inside.x + 1, y: inside.y + row, role: .key, limit: inside.maxX)
            grid.put(String(line.dropFirst(labelWidth)), x: x, y: inside.y + row, role: .overlay, limit: inside.maxX)
        }
        if inside.height > 1 {
            var closing = "? or Esc closes"
            if capacity < lines.count {
                // Where it is, and that there is more: the keys move it as they move a list.
                let last = min(lines.count, first + capacity)
                let more = last < lines.count ? ", more below" : ""
                closing = "\(first + 1)–\(last) of \(lines.count)\(more) · ↑/↓ scroll · " + closing
            }
            grid.put(glyphs.fold(closing), x: inside.x + 1, y: inside.maxY - 1, role: .muted, limit: inside.maxX)
        }
    }
}
