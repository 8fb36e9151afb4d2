import Foundation
import WatchModel

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
        let first = min(state.views.scroll, max(0, lines.count - capacity))
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
}
