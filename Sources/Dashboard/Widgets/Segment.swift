/// A piece of text in one role: lines are made of these.
public struct Segment: Sendable, Equatable {
    /// The text.
    public var text: String
    /// Its role.
    public var role: StyleRole

    /// Makes a segment.
    public init(_ text: String, _ role: StyleRole = .text) {
        self.text = text
        self.role = role
    }
}

extension CellGrid {
    /// Writes segments one after another from `x`, `y`, none past `limit`; text is folded to
    /// what `glyphs` can show.
    @discardableResult
    mutating func put(_ segments: [Segment], x: Int, y: Int, limit: Int, glyphs: Glyphs) -> Int {
        let texts = segments.map { glyphs.fold($0.text) }
        var column = x
        guard x + texts.reduce(0, { $0 + CellGrid.columns(of: $1) }) > limit else {
            for (segment, text) in zip(segments, texts) {
                column = put(text, x: column, y: y, role: segment.role, limit: limit)
            }
            return column
        }
        // Too long: whole segments while they fit beside an ellipsis; the first that does not is
        // cut at a word boundary if it is prose (a reason), or left out if it holds a value (a
        // number is never cut, nor kept without its label), and the ellipsis says so.
        let room = limit - 1
        for (index, (segment, text)) in zip(segments, texts).enumerated() {
            // A separator (" · ") is not left dangling before what does not fit.
            let isSeparator = !text.contains(where: { $0.isLetter || $0.isNumber })
            if isSeparator, index + 1 < texts.count,
                column + CellGrid.columns(of: text) + CellGrid.columns(of: texts[index + 1]) > room
            {
                break
            }
            if column + CellGrid.columns(of: text) <= room {
                column = put(text, x: column, y: y, role: segment.role, limit: limit)
                continue
            }
            if !text.contains(where: \.isNumber), let cut = Format.cutAtBoundary(text, columns: room - column) {
                column = put(cut, x: column, y: y, role: segment.role, limit: limit)
            }
            break
        }
        if column < limit { column = put(String(glyphs.ellipsis), x: column, y: y, role: .muted, limit: limit) }
        return column
    }
}
