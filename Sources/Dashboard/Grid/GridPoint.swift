/// A cell's position: column and row.
public struct GridPoint: Sendable, Equatable {
    /// The column.
    public var x: Int
    /// The row.
    public var y: Int

    /// Makes a position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
