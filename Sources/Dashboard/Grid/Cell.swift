/// One character cell of the screen: what is drawn there and in which role.
public struct Cell: Sendable, Equatable {
    /// Where a run of right-to-left text begins or ends, so that a terminal that reorders text
    /// (the Unicode bidirectional algorithm) keeps it apart from the rest of the row: a backend
    /// sends FIRST STRONG ISOLATE (U+2068) before a cell that ``opens`` and POP DIRECTIONAL
    /// ISOLATE (U+2069) after one that ``closes``, as zero-width marks that take no column.
    public struct Isolation: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Makes marks from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// An isolate begins before this cell.
        public static let opens = Isolation(rawValue: 1)
        /// An isolate ends after this cell.
        public static let closes = Isolation(rawValue: 2)
    }

    /// The character (a space when empty; ``Cell/continuation`` behind a wide character).
    public var character: Character
    /// What the character means, which the theme turns into colours and attributes.
    public var role: StyleRole
    /// Whether a run of right-to-left text begins or ends here.
    public var isolation: Isolation = []

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
