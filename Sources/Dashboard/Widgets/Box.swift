/// A pane's frame: a border with the title in its top edge.
struct Box {
    let rect: Rect
    let title: [Segment]
    let focused: Bool

    /// Draws the frame and returns the inside.
    @discardableResult
    func draw(in grid: inout CellGrid, glyphs: Glyphs) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let role: StyleRole = focused ? .borderFocused : .border
        let (left, right, top, bottom) = (rect.x, rect.maxX - 1, rect.y, rect.maxY - 1)
        for x in left + 1..<right {
            grid[x, top] = Cell(glyphs.horizontal, role: role)
            grid[x, bottom] = Cell(glyphs.horizontal, role: role)
        }
        for y in top + 1..<bottom {
            grid[left, y] = Cell(glyphs.vertical, role: role)
            grid[right, y] = Cell(glyphs.vertical, role: role)
        }
        grid[left, top] = Cell(glyphs.cornerTL, role: role)
        grid[right, top] = Cell(glyphs.cornerTR, role: role)
        grid[left, bottom] = Cell(glyphs.cornerBL, role: role)
        grid[right, bottom] = Cell(glyphs.cornerBR, role: role)
        if rect.width > 6 {
            let titleRole: StyleRole = focused ? .titleFocused : .title
            var segments = [Segment("\(glyphs.horizontal) ", role)]
            segments += title.map { Segment($0.text, $0.role == .title ? titleRole : $0.role) }
            segments.append(Segment(" ", role))
            grid.put(segments, x: left + 1, y: top, limit: right - 1, glyphs: glyphs)
        }
        return rect.inset(by: 1)
    }
}
