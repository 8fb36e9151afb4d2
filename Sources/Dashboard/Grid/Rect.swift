/// A rectangle of cells.
public struct Rect: Sendable, Equatable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The column after the last one.
    public var maxX: Int { x + width }
    /// The row after the last one.
    public var maxY: Int { y + height }
    /// Whether it has no cells.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether the cell at `column`, `row` is inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The rectangle `amount` cells in from every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// For example `0,0 80×24`.
    public var description: String { "\(x),\(y) \(width)×\(height)" }
}
