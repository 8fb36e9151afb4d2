/// One instruction of a compiled regular expression (a Thompson NFA as a program).
enum RegexInstruction: Sendable {
    /// Consume one character in the class.
    case character(RegexClass)
    /// Go on at both targets.
    case split(Int, Int)
    /// Go on at the target.
    case jump(Int)
    /// Go on only where the assertion holds.
    case assertion(RegexAssertion)
    /// The pattern matched.
    case match
}

/// Turns a ``RegexNode`` into ``RegexInstruction``s, refusing a program over its size limit.
struct RegexCompiler {
    private(set) var program: [RegexInstruction] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    @discardableResult
    mutating func append(_ instruction: RegexInstruction) throws(RegexError) -> Int {
        guard program.count < limit else {
            throw RegexError(message: "too large once its repetitions are counted (over \(limit) steps)")
        }
        program.append(instruction)
        return program.count - 1
    }

    /// Points the second target of the split at `index` to `target`.
    private mutating func patchSplit(_ index: Int, to target: Int) {
        if case .split(let first, _) = program[index] { program[index] = .split(first, target) }
    }

    mutating func emit(_ node: RegexNode) throws(RegexError) {
        switch node {
        case .empty:
            return
        case .character(let set):
            try append(.character(set))
        case .assertion(let assertion):
            try append(.assertion(assertion))
        case .concatenation(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            var exits: [Int] = []
            for branch in branches.dropLast() {
                let split = try append(.split(program.count + 1, -1))
                try emit(branch)
                exits.append(try append(.jump(-1)))
                patchSplit(split, to: program.count)
            }
            if let last = branches.last { try emit(last) }
            for exit in exits { program[exit] = .jump(program.count) }
        case .repetition(let operand, let min, let max):
            for _ in 0..<min { try emit(operand) }
            if let max {
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(try append(.split(program.count + 1, -1)))
                    try emit(operand)
                }
                for split in splits { patchSplit(split, to: program.count) }
            } else {
                let loop = try append(.split(program.count + 1, -1))
                try emit(operand)
                try append(.jump(loop))
                patchSplit(loop, to: program.count)
            }
        }
    }
}
