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
        var column = x
        for segment in segments {
            column = put(glyphs.fold(segment.text), x: column, y: y, role: segment.role, limit: limit)
            if column >= limit { break }
        }
        return column
    }
}
