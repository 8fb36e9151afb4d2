/// A place in a rules file: line and column, both counted from 1 (columns in characters).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// The character's offset from the start of the file, from 0 (-1: not known).
    ///
    /// Not part of equality: the line and column name the place; the offset indexes the
    /// coverage counts.
    public var offset: Int

    /// Makes a location.
    public init(line: Int, column: Int, offset: Int = -1) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    /// The same line and column.
    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// Hashes the line and column.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(column)
    }
}
