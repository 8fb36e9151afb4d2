extension RulePattern {
    /// Whether the pattern matches somewhere in `text` (anchors as written), as JavaScript's
    /// `test` answers.
    ///
    /// All live states advance together over the text, one character at a time (a Pike VM), so
    /// the time is at most the text's length times the program's size, whatever the pattern.
    ///
    /// - Throws: ``RuleEvaluationError`` when the match would take over ``stepBudget`` steps.
    func matches(_ text: String) throws(RuleEvaluationError) -> Bool {
        try matches(scalars: text.unicodeScalars.map(\.value), budget: Self.stepBudget)
    }

    /// The match over Unicode scalar values, with an explicit step budget (for tests).
    func matches(scalars text: [UInt32], budget: Int) throws(RuleEvaluationError) -> Bool {
        var current = ThreadSet(capacity: program.count)
        var next = ThreadSet(capacity: program.count)
        var pending: [Int] = []
        var steps = 0

        /// Adds `start` and every state reachable from it without reading, at `position`.
        /// Returns true when the match state is reached.
        func add(_ start: Int, to set: inout ThreadSet, at position: Int) -> Bool {
            pending.append(start)
            while let pc = pending.popLast() {
                guard set.insert(pc) else { continue }
                steps += 1
                switch program[pc] {
                case .match:
                    pending.removeAll()
                    return true
                case .character:
                    continue
                case .jump(let target):
                    pending.append(target)
                case .split(let first, let second):
                    pending.append(second)
                    pending.append(first)
                case .assertion(let assertion):
                    if holds(assertion, in: text, at: position) { pending.append(pc + 1) }
                }
            }
            return false
        }

        for position in 0...text.count {
            // A new attempt starts at every position: the pattern may match anywhere.
            if add(0, to: &current, at: position) { return true }
            guard position < text.count else { break }
            let scalar = text[position]
            next.clear()
            for pc in current.members {
                guard case .character(let set) = program[pc], set.contains(scalar, caseInsensitive: caseInsensitive)
                else { continue }
                if add(pc + 1, to: &next, at: position + 1) { return true }
            }
            if steps > budget {
                throw RuleEvaluationError(
                    message:
                        "the regular expression /\(source)/ took over \(budget) steps on a text of \(text.count) characters"
                )
            }
            swap(&current, &next)
        }
        return false
    }

    private func holds(_ assertion: RegexAssertion, in text: [UInt32], at position: Int) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == text.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexClass.isWord(text[position - 1])
            let after = position < text.count && RegexClass.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// A set of program positions with constant-time insert, membership and clear, in insertion
/// order (a sparse set).
struct ThreadSet {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    /// Inserts `pc`; false when it was there already.
    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count && dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func clear() { count = 0 }

    /// The members, in the order they were inserted.
    var members: ArraySlice<Int> { dense[0..<count] }
}
