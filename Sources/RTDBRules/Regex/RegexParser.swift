/// A parsed regular expression of a rule, before it is compiled (``RegexCompiler``).
indirect enum RegexNode: Sendable {
    case empty
    case character(RegexClass)
    case assertion(RegexAssertion)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
}

/// A zero-width test at a position.
enum RegexAssertion: Sendable {
    case start, end, wordBoundary, notWordBoundary
}

/// Why a pattern could not be read.
struct RegexError: Error {
    var message: String
}

/// Reads the rules' regular expression syntax (see ``RulePattern``) into a ``RegexNode``.
struct RegexParser {
    /// The largest count a `{n,m}` may give.
    static let maxCount = 1_000

    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// The whole pattern.
    mutating func parse() throws(RegexError) -> RegexNode {
        let node = try alternation()
        if index < scalars.count { throw RegexError(message: "unmatched ')'") }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var branches = [try concatenation()]
        while peek == "|" {
            index += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let next = peek, next != "|", next != ")" {
            items.append(try quantified(try atom()))
        }
        return items.isEmpty ? .empty : (items.count == 1 ? items[0] : .concatenation(items))
    }

    private mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
        let bounds: (Int, Int?)
        switch peek {
        case "*":
            index += 1
            bounds = (0, nil)
        case "+":
            index += 1
            bounds = (1, nil)
        case "?":
            index += 1
            bounds = (0, 1)
        case "{":
            // Consumed by `counts`, or a literal brace.
            guard let counted = try counts() else { return atom }
            bounds = counted
        default: return atom
        }
        if case .assertion = atom { throw RegexError(message: "nothing to repeat before a quantifier") }
        if peek == "?" { index += 1 }  // lazy: the same yes or no
        if let next = peek, "*+?".unicodeScalars.contains(next) {
            throw RegexError(message: "nothing to repeat at '\(next)'")
        }
        return .repetition(atom, min: bounds.0, max: bounds.1)
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position, consumed; nil (nothing consumed) when
    /// the brace starts no count, and then it is a literal `{` as in JavaScript.
    private mutating func counts() throws(RegexError) -> (Int, Int?)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < scalars.count, let digit = Int(String(scalars[cursor])), scalars[cursor].isASCII {
                value = min((value ?? 0) * 10 + digit, Self.maxCount + 1)
                cursor += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            high = number()
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        if low > Self.maxCount || (high ?? 0) > Self.maxCount {
            throw RegexError(message: "a count over \(Self.maxCount)")
        }
        if let high, high < low { throw RegexError(message: "{\(low),\(high)}: the counts are out of order") }
        index = cursor + 1
        return (low, high)
    }

    private mutating func atom() throws(RegexError) -> RegexNode {
        guard let scalar = peek else { throw RegexError(message: "unexpected end") }
        index += 1
        switch scalar {
        case "(":
            if peek == "?" {
                guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                    throw RegexError(message: "lookaround and named groups are not supported")
                }
                index += 2
            }
            let inner = try alternation()
            guard peek == ")" else { throw RegexError(message: "missing ')'") }
            index += 1
            return inner
        case "[": return .character(try characterClass())
        case ".": return .character(.dot)
        case "^": return .assertion(.start)
        case "$": return .assertion(.end)
        case "\\": return try escape()
        case "*", "+", "?": throw RegexError(message: "nothing to repeat at '\(scalar)'")
        default: return .character(RegexClass(scalar: scalar.value))
        }
    }

    private mutating func escape() throws(RegexError) -> RegexNode {
        guard let scalar = peek else { throw RegexError(message: "'\\' at the end") }
        index += 1
        switch scalar {
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        case "1"..."9": throw RegexError(message: "backreferences are not supported")
        default: return .character(try classEscape(scalar))
        }
    }

    /// The class an escape stands for (`\d`, `\n`, `\.`), inside brackets or out.
    private mutating func classEscape(_ scalar: Unicode.Scalar) throws(RegexError) -> RegexClass {
        switch scalar {
        case "d": return RegexClass(items: [.digit])
        case "D": return RegexClass(items: [.digit], negated: true)
        case "w": return RegexClass(items: [.word])
        case "W": return RegexClass(items: [.word], negated: true)
        case "s": return RegexClass(items: [.space])
        case "S": return RegexClass(items: [.space], negated: true)
        case "n": return RegexClass(scalar: 0x0A)
        case "r": return RegexClass(scalar: 0x0D)
        case "t": return RegexClass(scalar: 0x09)
        case "f": return RegexClass(scalar: 0x0C)
        case "v": return RegexClass(scalar: 0x0B)
        case "0": return RegexClass(scalar: 0)
        case "u":
            guard index + 4 <= scalars.count,
                let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + 4)])), radix: 16)
            else { throw RegexError(message: "\\u needs four hexadecimal digits") }
            index += 4
            return RegexClass(scalar: value)
        case _ where scalar.properties.isAlphabetic || scalar.properties.numericType != nil:
            throw RegexError(message: "unknown escape '\\\(scalar)'")
        default: return RegexClass(scalar: scalar.value)
        }
    }

    private mutating func characterClass() throws(RegexError) -> RegexClass {
        var negated = false
        if peek == "^" {
            negated = true
            index += 1
        }
        var items: [RegexClass.Item] = []
        while let scalar = peek, scalar != "]" {
            index += 1
            let low: UInt32
            if scalar == "\\" {
                guard let escaped = peek else { throw RegexError(message: "missing ']'") }
                index += 1
                let inner = escaped == "b" ? RegexClass(scalar: 0x08) : try classEscape(escaped)
                guard case .scalar(let value) = inner.items.first, inner.items.count == 1, !inner.negated else {
                    items.append(contentsOf: inner.negated ? [.notIn(inner.items)] : inner.items)
                    continue
                }
                low = value
            } else {
                low = scalar.value
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                guard let end = peek else { break }
                index += 1
                var high = end.value
                if end == "\\" {
                    guard let escaped = peek else { throw RegexError(message: "missing ']'") }
                    index += 1
                    guard case .scalar(let value) = try classEscape(escaped).items.first else {
                        throw RegexError(message: "a range cannot end in a class")
                    }
                    high = value
                }
                guard low <= high else { throw RegexError(message: "range out of order in a class") }
                items.append(.range(low, high))
            } else {
                items.append(.scalar(low))
            }
        }
        guard peek == "]" else { throw RegexError(message: "missing ']'") }
        index += 1
        return RegexClass(items: items, negated: negated)
    }
}
