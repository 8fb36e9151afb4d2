/// The set of characters one step of a regular expression accepts: a literal, `.`, or a class.
struct RegexClass: Sendable {
    /// One member of a class.
    indirect enum Item: Sendable {
        case scalar(UInt32)
        case range(UInt32, UInt32)
        /// `\d`: 0–9.
        case digit
        /// `\w`: A–Z, a–z, 0–9 and `_`.
        case word
        /// `\s`: JavaScript's white space and line terminators.
        case space
        /// Everything but these (`\D`, `\W`, `\S` inside brackets).
        case notIn([Item])
    }

    let items: [Item]
    let negated: Bool

    init(items: [Item], negated: Bool = false) {
        self.items = items
        self.negated = negated
    }

    /// One character.
    init(scalar: UInt32) {
        self.init(items: [.scalar(scalar)])
    }

    /// `.`: anything but a line terminator, as in JavaScript.
    static let dot = RegexClass(items: [.scalar(0x0A), .scalar(0x0D), .scalar(0x2028), .scalar(0x2029)], negated: true)

    /// Whether `scalar` is in the set; with `caseInsensitive`, either case of a letter is.
    func contains(_ scalar: UInt32, caseInsensitive: Bool) -> Bool {
        var found = Self.contains(scalar, in: items)
        if !found, caseInsensitive, let character = Unicode.Scalar(scalar) {
            for other in [character.properties.lowercaseMapping, character.properties.uppercaseMapping] {
                let mapped = other.unicodeScalars
                if mapped.count == 1, let value = mapped.first?.value, value != scalar,
                    Self.contains(value, in: items)
                {
                    found = true
                    break
                }
            }
        }
        return found != negated
    }

    private static func contains(_ scalar: UInt32, in items: [Item]) -> Bool {
        items.contains { item in
            switch item {
            case .scalar(let value): return value == scalar
            case .range(let low, let high): return low <= scalar && scalar <= high
            case .digit: return (0x30...0x39).contains(scalar)
            case .word: return isWord(scalar)
            case .space: return isSpace(scalar)
            case .notIn(let inner): return !contains(scalar, in: inner)
            }
        }
    }

    /// `\w`'s characters, which `\b` also uses.
    static func isWord(_ scalar: UInt32) -> Bool {
        (0x30...0x39).contains(scalar) || (0x41...0x5A).contains(scalar) || (0x61...0x7A).contains(scalar)
            || scalar == 0x5F
    }

    private static func isSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
