import Foundation
import PresenceLab
import RTDBCore

extension DashboardRenderer {
    /// A view over the panes (the Cache and onDisconnect views): a box of lines that scrolls.
    func drawOverlay(
        _ grid: inout CellGrid, title: String, closing key: String, _ lines: [[Segment]], _ state: DashboardState
    ) {
        let width = min(grid.width - 2, 110)
        let rect = Rect(x: (grid.width - width) / 2, y: 1, width: width, height: grid.height - 2)
        grid.fill(rect, role: .overlay)
        let inside = Box(rect: rect, title: [Segment(title, .title)], focused: true).draw(in: &grid, glyphs: glyphs)
        let capacity = max(0, inside.height - 1)
        let first = min(state.overlayScroll, max(0, lines.count - capacity))
        for (row, line) in lines.dropFirst(first).prefix(capacity).enumerated() {
            grid.put(line, x: inside.x + 1, y: inside.y + row, limit: inside.maxX, glyphs: glyphs)
        }
        if inside.height > 1 {
            var closing = "\(key) or Esc closes"
            if capacity < lines.count {
                let last = min(lines.count, first + capacity)
                closing = "\(first + 1)–\(last) of \(lines.count) · ↑/↓ scroll · " + closing
            }
            grid.put(glyphs.fold(closing), x: inside.x + 1, y: inside.maxY - 1, role: .muted, limit: inside.maxX)
        }
    }

    /// The Cache view's lines: this device's disk cache by top-level path, its tracked queries
    /// (complete, active, keepSynced, last use), and what the next prune would remove.
    func cacheLines(_ state: DashboardState, width: Int) -> [[Segment]] {
        guard state.cacheRead else { return [[Segment("reading the cache…", .muted)]] }
        guard let cache = state.cache else {
            return [[Segment("this device runs without persistence: it has no disk cache", .muted)]]
        }
        let fullness: StyleRole = cache.totalBytes > cache.limitBytes ? .bad : .text
        var lines: [[Segment]] = [
            [
                Segment("\(Format.bytes(cache.totalBytes)) of \(Format.bytes(cache.limitBytes))", fullness),
                Segment(cache.pruneDue ? "  a prune is due" : "  no prune due", cache.pruneDue ? .warn : .muted),
            ],
            [],
            [Segment("BYTES BY PATH", .header)],
        ]
        let pathWidth = max(12, min(40, width / 3))
        if cache.bytesByPath.isEmpty { lines.append([Segment("  nothing cached", .muted)]) }
        for (path, bytes) in cache.bytesByPath {
            let shown = path == "/" ? "/" : "/" + path
            lines.append([
                Segment("  " + Format.fitMiddle(shown, pathWidth, ellipsis: glyphs.ellipsis) + " "),
                Segment(Format.bytes(bytes), .accent),
            ])
        }
        lines += [[], [Segment("TRACKED QUERIES (\(cache.queries.count))", .header)]]
        let queryWidth = max(8, min(30, width - pathWidth - 40))
        lines.append([
            Segment(
                "  " + Format.fit("PATH", pathWidth) + " " + Format.fit("QUERY", queryWidth) + " "
                    + "COMPLETE  ACTIVE  SYNCED  LAST USE", .muted)
        ])
        for query in cache.queries {
            func flag(_ value: Bool, _ width: Int) -> Segment {
                Segment(Format.fit(value ? "yes" : "no", width), value ? .good : .muted)
            }
            lines.append([
                Segment("  " + Format.fitMiddle(query.path, pathWidth, ellipsis: glyphs.ellipsis) + " "),
                Segment(Format.fit(query.query, queryWidth, ellipsis: glyphs.ellipsis) + " "),
                flag(query.complete, 10), flag(query.active, 8), flag(query.keepSynced, 8),
                Segment(Format.shortDuration(state.deviceNow - query.lastUse) + " ago", .muted),
            ])
        }
        lines += [[], [Segment("NEXT PRUNE", .header)]]
        if cache.nextPrune.isEmpty {
            lines.append([Segment("  nothing: active and kept-synced queries are never pruned", .muted)])
        }
        for query in cache.nextPrune {
            lines.append([Segment("  " + query, cache.pruneDue ? .warn : .text)])
        }
        return lines
    }
}
