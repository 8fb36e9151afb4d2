/// One character cell of the screen: what is drawn there and in which role.
public struct Cell: Sendable, Equatable {
    /// The character (a space when empty; ``Cell/continuation`` behind a wide character).
    public var character: Character
    /// What the character means, which the theme turns into colours and attributes.
    public var role: StyleRole

    /// Makes a cell.
    public init(_ character: Character = " ", role: StyleRole = .text) {
        self.character = character
        self.role = role
    }

    /// Marks the right half of a character two columns wide: nothing is drawn there.
    public static let continuation: Character = "\u{0}"

    /// Whether this cell is the right half of a wide character.
    public var isContinuation: Bool { character == Cell.continuation }
}
