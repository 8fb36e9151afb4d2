import Foundation
import PresenceModel
import RTDBCore
import WatchModel

extension DashboardRenderer {
    /// This device's queue: a row per write (id, operation, path, bytes, age, state, attempts),
    /// the drain rate with a queue-depth sparkline, then the dead letters.
    func drawPending(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        guard let device = state.snapshot?.thisDevice else {
            grid.put(Segment.waiting(state), x: rect.x + 1, y: rect.y, limit: rect.maxX, glyphs: glyphs)
            return
        }
        let limit = rect.maxX - 1
        let pathWidth = max(8, rect.width - 50)
        let columns = [("ID", 6), ("OP", 12), ("PATH", pathWidth), ("BYTES", 7), ("AGE", 7), ("STATE", 10)]
        var header = [Segment(" ")]
        for (name, width) in columns { header.append(Segment(Format.fit(name, width), .header)) }
        header.append(Segment("TRIES", .header))
        grid.put(header, x: rect.x, y: rect.y, limit: limit, glyphs: glyphs)

        let writes = device.pendingWrites
        let dead = device.deadLetters
        let deadRows = dead.isEmpty ? 0 : min(dead.count + 1, max(0, (rect.height - 3) / 3))
        let writeRows = max(0, rect.height - 2 - deadRows)
        let first = min(state.panes.scroll[.pending] ?? 0, max(0, writes.count - writeRows))
        if writes.isEmpty {
            grid.put(
                " nothing waiting: every write is acknowledged", x: rect.x, y: rect.y + 1, role: .muted, limit: limit)
        }
        for (offset, write) in writes.dropFirst(first).prefix(writeRows).enumerated() {
            let (stateText, role) = describe(write.state)
            let values = [
                "\(write.id)", write.operation, write.path, Format.bytes(write.bytes),
                Format.shortDuration(state.deviceNow - write.enqueuedAt),
            ]
            var row = [Segment(" ")]
            for (index, (value, (_, width))) in zip(values, columns).enumerated() {
                // A path keeps its end (the key that tells rows apart): cut in the middle.
                let fitted =
                    index == 2
                    ? Format.fitMiddle(value, width - 1, ellipsis: glyphs.ellipsis)
                    : Format.fit(value, width - 1, ellipsis: glyphs.ellipsis)
                row.append(Segment(fitted + " "))
            }
            row.append(Segment(Format.fit(stateText, 9, ellipsis: glyphs.ellipsis) + " ", role))
            row.append(Segment("\(write.attempts)"))
            grid.put(row, x: rect.x, y: rect.y + 1 + offset, limit: limit, glyphs: glyphs)
        }
        // The drain: writes acknowledged per second, and the queue's depth over time.
        let drain = state.samples.drain.last ?? 0
        let spark = Sparkline.text(
            state.samples.queue.values.map(Double.init), width: max(0, rect.width - 36), glyphs: glyphs, fromZero: true)
        grid.put(
            [
                Segment(" drain ", .muted), Segment("\(drain) /s", .accent), Segment("  depth ", .muted),
                Segment(spark, .graph), Segment("  peak \(state.samples.peakDrain) /s", .muted),
                Segment(
                    writes.count > first + writeRows ? "   ↓ \(writes.count - first - writeRows) more" : "", .muted),
            ], x: rect.x, y: rect.y + 1 + writeRows, limit: limit, glyphs: glyphs)
        guard deadRows > 0 else { return }
        let top = rect.y + 2 + writeRows
        grid.put(
            glyphs.fold(" Dead letters (\(dead.count))  R retry · X forget"), x: rect.x, y: top, role: .bad,
            limit: limit)
        // The newest that fit, or from the selected one if it is older.
        let shown = deadRows - 1
        let selected = state.currentDeadLetter
        let selectedIndex = dead.firstIndex { $0.id == selected } ?? dead.count - 1
        let start = min(max(0, dead.count - shown), selectedIndex)
        for (offset, letter) in dead.dropFirst(start).prefix(shown).enumerated() {
            let isSelected = state.panes.focused == .pending && letter.id == selected
            let role: StyleRole = isSelected ? .selected : .bad
            let line = [
                Segment(" \(letter.id)  \(letter.operation)  \(letter.path)  ", role),
                Segment(describe(letter.state).0, role),
            ]
            grid.put(line, x: rect.x, y: top + 1 + offset, limit: limit, glyphs: glyphs)
        }
    }

    /// The queue's bytes of its bound, for the pane's title: muted, a warning past four fifths,
    /// bad at the bound (where writes fail with `queue_full`).
    func queueUsage(_ device: WatchSnapshot.ThisDevice) -> Segment {
        let (used, bound) = (device.pendingBytes, device.pendingBytesBound)
        let role: StyleRole = used >= bound ? .bad : used >= bound / 5 * 4 ? .warn : .muted
        return Segment("  \(Format.bytes(used)) of \(Format.bytes(bound))", role)
    }

    private func describe(_ state: QueuedWrite.State) -> (String, StyleRole) {
        switch state {
        case .queued: ("queued", .text)
        case .inFlight: ("in flight", .accent)
        case .paused(let reason): ("paused: \(reason)", .warn)
        case .refused(let status, let reason): ("\(status): \(reason)", .bad)
        }
    }

    /// The timeline, newest first.
    func drawEvents(_ grid: inout CellGrid, _ rect: Rect, _ state: DashboardState) {
        let skip = state.panes.scroll[.events] ?? 0
        if state.timeline.events.isEmpty {
            grid.put(" nothing yet", x: rect.x, y: rect.y, role: .muted, limit: rect.maxX)
        }
        for (row, event) in state.timeline.events.reversed().dropFirst(skip).prefix(rect.height).enumerated() {
            let time = " " + Format.timeOfDay(event.at, zone: state.preferences.timeZone) + "  "
            // An event is a sentence: one too long is cut at a word, never left out for its numbers.
            let room = rect.maxX - 1 - rect.x - CellGrid.columns(of: time)
            var text = glyphs.fold(event.text)
            if CellGrid.columns(of: text) > room {
                text = (Format.cutAtBoundary(text, columns: room - 1) ?? "") + String(glyphs.ellipsis)
            }
            grid.put(
                [Segment(time, .muted), Segment(text, event.role)], x: rect.x, y: rect.y + row, limit: rect.maxX - 1,
                glyphs: glyphs)
        }
    }
}
