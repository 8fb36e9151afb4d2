/// The whole screen as characters and style roles: what the renderer makes and a backend draws.
///
/// Pure data, so that tests compare screens as text without a terminal.
public struct CellGrid: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]
    /// Where the (hidden) cursor should rest: the selected row, for screen readers.
    public var cursor: GridPoint?

    /// Makes a grid of spaces.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// The cell at a column and row (a space outside the grid).
    public subscript(x: Int, y: Int) -> Cell {
        get { x >= 0 && x < width && y >= 0 && y < height ? cells[y * width + x] : Cell() }
        set {
            guard x >= 0 && x < width && y >= 0 && y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// The rectangle of the whole grid.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Writes `text` from `x`, `y` in `role`, never past `limit` (the grid's edge by default);
    /// returns the column after the last character written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: StyleRole, limit: Int? = nil) -> Int {
        let end = min(limit ?? width, width)
        guard y >= 0, y < height else { return x }
        var column = x
        /// One terminal cell's piece, and its continuation when it is wide.
        func place(_ character: Character, _ columns: Int) {
            if column >= 0 {
                self[column, y] = Cell(character, role: role)
                if columns == 2 { self[column + 1, y] = Cell(Cell.continuation, role: role) }
            }
            column += columns
        }
        // Text with right-to-left letters: each written character's first cell and direction,
        // to isolate its right-to-left runs once written (ASCII, most text, has none).
        let mayHoldRightToLeft = !text.utf8.allSatisfy { $0 < 0xD6 }
        var directions: [(column: Int, direction: Direction)] = []
        defer {
            // A character that did not fit was noted but not written.
            if mayHoldRightToLeft { isolateRightToLeftRuns(directions.filter { $0.column < column }, y: y) }
        }
        for character in text {
            if mayHoldRightToLeft, column >= 0, column < end {
                directions.append((column, CellGrid.direction(of: character)))
            }
            let scalars = character.unicodeScalars
            if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
                // One scalar (most text): one piece, with nothing to allocate.
                let columns = CellGrid.columns(of: only)
                if columns == 0 { continue }
                guard column + columns <= end else { break }
                place(character, columns)
                continue
            }
            // A cluster is drawn whole or not at all: never cut inside it.
            let pieces = CellGrid.pieces(of: character)
            let columns = pieces.reduce(0) { $0 + $1.columns }
            if columns == 0 { continue }
            guard column + columns <= end else { break }
            for piece in pieces { place(piece.character, piece.columns) }
        }
        return column
    }

    /// Fills a rectangle with one character in one role.
    public mutating func fill(_ rect: Rect, with character: Character = " ", role: StyleRole) {
        for row in max(0, rect.y)..<min(height, rect.maxY) {
            for column in max(0, rect.x)..<min(width, rect.maxX) { self[column, row] = Cell(character, role: role) }
        }
    }

    /// Sets the role of every cell in a rectangle, keeping the characters.
    public mutating func paint(_ rect: Rect, role: StyleRole) {
        for row in max(0, rect.y)..<min(height, rect.maxY) {
            for column in max(0, rect.x)..<min(width, rect.maxX) { self[column, row].role = role }
        }
    }

    /// The screen as text: one line per row, trailing spaces trimmed.
    public var text: String {
        (0..<height).map { line($0) }.joined(separator: "\n")
    }

    /// Row `y` as text, trailing spaces trimmed.
    public func line(_ y: Int) -> String {
        var text = ""
        for x in 0..<width where !self[x, y].isContinuation { text.append(self[x, y].character) }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The roles as runs, one line per row that has any besides plain text: `3: title 2..8, border 9..40`.
    public var roleRuns: String {
        var lines: [String] = []
        for y in 0..<height {
            var runs: [String] = []
            var start = 0
            for x in 1...width where x == width || self[x, y].role != self[start, y].role {
                let role = self[start, y].role
                if role != .text { runs.append("\(role.rawValue) \(start)..\(x - 1)") }
                start = x
            }
            if !runs.isEmpty { lines.append("\(y): " + runs.joined(separator: ", ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// How many columns a character takes on a terminal: the sum of its ``pieces(of:)``.
    public static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return columns(of: only)
        }
        return pieces(of: character).reduce(0) { $0 + $1.columns }
    }

    /// How many columns a string takes.
    public static func columns(of text: String) -> Int {
        // Printable ASCII, as most ids are, is a column a byte: no need to find its characters.
        let printable = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte > 0x7E { return nil }
            return bytes.count
        }
        if let printable, let count = printable { return count }
        return text.reduce(0) { $0 + columns(of: $1) }
    }

    /// How many columns one scalar advances a terminal's cursor (glibc's `wcwidth`, which tmux
    /// and ncurses follow): 2 for East Asian wide and emoji, 0 for combining marks, format
    /// characters (joiners, variation selectors' kin) and controls, else 1 — a spacing mark
    /// such as Devanagari's vowel sign `ि` too.
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// A character as a terminal lays it out, cell by cell.
    ///
    /// Each scalar that moves the cursor starts a piece of its width, and the zero-width scalars after it (combining marks,
    /// viramas, joiners, variation selectors) go with it, as does a wide scalar right after a
    /// zero-width joiner (an emoji sequence, which tmux draws as one). So `प्रि` is three
    /// pieces of one column (`प्`, `र`, `ि`), `👩‍💻` one of two, `é` (e and U+0301) one of one.
    ///
    /// A piece goes in one cell (with a continuation after a wide one): a cell given a cluster
    /// whose parts move the cursor further than the grid counted shifted every later column.
    /// Zero-width scalars before any piece join the first; a character of nothing but them has
    /// no piece.
    public static func pieces(of character: Character) -> [(character: Character, columns: Int)] {
        let scalars = character.unicodeScalars
        if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            let width = columns(of: only)
            return width == 0 ? [] : [(character, width)]
        }
        var pieces: [(scalars: String.UnicodeScalarView, columns: Int)] = []
        var leading = String.UnicodeScalarView()
        var afterJoiner = false
        for scalar in scalars {
            let width = columns(of: scalar)
            // A control never reaches a cell (the text is the database's: an escape there would
            // reach the terminal).
            if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { continue }
            if !pieces.isEmpty, width == 0 || (afterJoiner && width == 2) {
                pieces[pieces.count - 1].scalars.append(scalar)
            } else if width == 0 {
                leading.append(scalar)
            } else {
                var piece = leading
                leading = String.UnicodeScalarView()
                piece.append(scalar)
                pieces.append((piece, width))
            }
            afterJoiner = scalar == "\u{200D}"
        }
        return pieces.map { piece in
            let text = String(piece.scalars)
            // Each piece is one cluster by Swift's rules too; should one not be, its first
            // scalar stands for it rather than a trap.
            let character = text.count == 1 ? Character(text) : Character(piece.scalars.first ?? " ")
            return (character, piece.columns)
        }
    }
}
