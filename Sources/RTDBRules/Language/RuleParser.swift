/// Parses one rule expression (precedence as in JavaScript, which the rules language follows).
struct RuleParser {
    private var lexer: RuleLexer
    private var current: RuleToken
    /// How deep the expression being read nests now (parentheses, `!`, unary `-`).
    private var depth = 0

    /// The deepest nesting a rule may have.
    ///
    /// A deeper one is refused with an error instead of overflowing the stack (found by fuzzing
    /// the rules reader: thousands of `(`).
    static let maxDepth = 64

    /// Parses `text`, whose characters are at `locations` in the file.
    static func parse(_ text: String, locations: [SourceLocation], start: SourceLocation) throws(LocatedProblem)
        -> RuleExpression
    {
        var parser = try RuleParser(RuleLexer(text, locations: locations, start: start))
        if case .end = parser.current.kind {
            throw LocatedProblem(location: start, message: "the rule is empty")
        }
        let expression = try parser.expression(precedence: 0)
        guard case .end = parser.current.kind else {
            throw LocatedProblem(
                location: parser.current.location, message: "unexpected \(parser.describe(parser.current))")
        }
        return expression
    }

    private init(_ lexer: RuleLexer) throws(LocatedProblem) {
        self.lexer = lexer
        current = try self.lexer.next(operandExpected: true)
    }

    private mutating func advance() throws(LocatedProblem) {
        let operandEnds: Bool
        switch current.kind {
        case .number, .string, .identifier, .regex: operandEnds = true
        case .symbol(let symbol): operandEnds = symbol == ")" || symbol == "]"
        case .end: operandEnds = false
        }
        current = try lexer.next(operandExpected: !operandEnds)
    }

    private func describe(_ token: RuleToken) -> String {
        switch token.kind {
        case .number(let value): return "number \(value)"
        case .string(let value): return "string '\(value)'"
        case .identifier(let name): return "'\(name)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .regex: return "regular expression"
        case .end: return "end of the rule"
        }
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private mutating func expect(_ symbol: String) throws(LocatedProblem) {
        guard isSymbol(symbol) else {
            throw LocatedProblem(
                location: current.location, message: "expected '\(symbol)', found \(describe(current))")
        }
        try advance()
    }

    private static let binary: [String: (RuleOperator, Int)] = [
        "||": (.or, 2), "&&": (.and, 3),
        "==": (.equal, 4), "!=": (.notEqual, 4), "===": (.identical, 4), "!==": (.notIdentical, 4),
        "<": (.less, 5), "<=": (.lessOrEqual, 5), ">": (.greater, 5), ">=": (.greaterOrEqual, 5),
        "+": (.plus, 6), "-": (.minus, 6), "*": (.times, 7), "/": (.divide, 7), "%": (.remainder, 7),
    ]

    private mutating func expression(precedence: Int) throws(LocatedProblem) -> RuleExpression {
        var left = try unary()
        while true {
            if isSymbol("?") && precedence <= 1 {
                let location = current.location
                try advance()
                let whenTrue = try expression(precedence: 1)
                try expect(":")
                let whenFalse = try expression(precedence: 1)
                left = .conditional(left, whenTrue, whenFalse, location)
                continue
            }
            guard case .symbol(let symbol) = current.kind, let (op, level) = Self.binary[symbol], level > precedence
            else { return left }
            let location = current.location
            try advance()
            left = .binary(op, left, try expression(precedence: level), location)
        }
    }

    private mutating func unary() throws(LocatedProblem) -> RuleExpression {
        let location = current.location
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw LocatedProblem(location: location, message: "the rule nests deeper than \(Self.maxDepth) levels")
        }
        if isSymbol("!") {
            try advance()
            return .unary(.not, try unary(), location)
        }
        if isSymbol("-") {
            try advance()
            return .unary(.negate, try unary(), location)
        }
        return try postfix(try primary())
    }

    private mutating func primary() throws(LocatedProblem) -> RuleExpression {
        let token = current
        switch token.kind {
        case .number(let value):
            try advance()
            return .literal(.number(value), token.location)
        case .string(let value):
            try advance()
            return .literal(.string(value), token.location)
        case .regex(let source, let flags):
            try advance()
            switch RulePattern.compile(source, flags: flags) {
            case .success(let pattern): return .regex(pattern, token.location)
            case .failure(let error): throw LocatedProblem(location: token.location, message: error.message)
            }
        case .identifier(let name):
            try advance()
            switch name {
            case "true": return .literal(.bool(true), token.location)
            case "false": return .literal(.bool(false), token.location)
            case "null": return .literal(.null, token.location)
            default: return .variable(name, token.location)
            }
        case .symbol("("):
            try advance()
            let inner = try expression(precedence: 0)
            try expect(")")
            return inner
        case .symbol("["):
            try advance()
            var elements: [RuleExpression] = []
            if !isSymbol("]") {
                elements.append(try expression(precedence: 0))
                while isSymbol(",") {
                    try advance()
                    elements.append(try expression(precedence: 0))
                }
            }
            try expect("]")
            return .array(elements, token.location)
        default:
            throw LocatedProblem(location: token.location, message: "expected a value, found \(describe(token))")
        }
    }

    private mutating func postfix(_ base: RuleExpression) throws(LocatedProblem) -> RuleExpression {
        var expression = base
        while true {
            if isSymbol(".") {
                try advance()
                guard case .identifier(let name) = current.kind else {
                    throw LocatedProblem(location: current.location, message: "expected a name after '.'")
                }
                let location = current.location
                try advance()
                if isSymbol("(") {
                    try advance()
                    var arguments: [RuleExpression] = []
                    if !isSymbol(")") {
                        arguments.append(try self.expression(precedence: 0))
                        while isSymbol(",") {
                            try advance()
                            arguments.append(try self.expression(precedence: 0))
                        }
                    }
                    try expect(")")
                    expression = .call(expression, name, arguments, location)
                } else {
                    expression = .member(expression, name, location)
                }
            } else if isSymbol("[") {
                let location = current.location
                try advance()
                let index = try self.expression(precedence: 0)
                try expect("]")
                expression = .index(expression, index, location)
            } else {
                return expression
            }
        }
    }
}
