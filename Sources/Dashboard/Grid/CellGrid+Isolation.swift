extension CellGrid {
    /// How a character sets the direction of the text around it, by its strongest scalar.
    enum Direction {
        /// Right to left (Hebrew, Arabic and the other scripts written so).
        case rightToLeft
        /// Left to right (Latin, Devanagari, CJK and every other letter).
        case leftToRight
        /// Neither: spaces, digits, punctuation, symbols.
        case neutral
    }

    /// The direction `character` gives the text it is in.
    static func direction(of character: Character) -> Direction {
        var direction = Direction.neutral
        for scalar in character.unicodeScalars {
            if isRightToLeft(scalar) { return .rightToLeft }
            if scalar.properties.isAlphabetic { direction = .leftToRight }
        }
        return direction
    }

    /// Whether `scalar` is a letter of a right-to-left script (bidirectional class R or AL):
    /// the blocks of Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, their
    /// presentation forms, and the right-to-left blocks of the supplementary planes.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Marks and digits inside these blocks are not strong; letters are.
            return scalar.properties.isAlphabetic && scalar.properties.generalCategory != .nonspacingMark
        default:
            return false
        }
    }

    /// Marks each right-to-left run among `cells` (each written character's first cell, in
    /// order) as an isolate: from its first right-to-left character to its last, over the
    /// neutral ones between (so `محمد علي` is one run), ending before a left-to-right letter.
    mutating func isolateRightToLeftRuns(_ cells: [(column: Int, direction: Direction)], y: Int) {
        var start: Int?
        var last: Int?
        func close() {
            if let start, let last {
                self[start, y].isolation.insert(.opens)
                self[last, y].isolation.insert(.closes)
            }
            (start, last) = (nil, nil)
        }
        for cell in cells {
            switch cell.direction {
            case .rightToLeft:
                if start == nil { start = cell.column }
                last = cell.column
            case .leftToRight:
                close()
            case .neutral:
                break
            }
        }
        close()
    }
}
