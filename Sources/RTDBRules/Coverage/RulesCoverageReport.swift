/// The coverage of one set of rules: each rule's expressions with how often each was evaluated
/// and what it gave, and the latest requests the rules refused.
public struct RulesCoverageReport: Sendable, Hashable {
    /// One expression (the whole rule, or a part of it) and its evaluations.
    public struct Expression: Sendable, Hashable {
        /// The expression written out (`auth.uid == $uid`).
        public var text: String
        /// Where it sits in the file (its operator, name or first token).
        public var location: SourceLocation
        /// How many times it was evaluated.
        public var evaluations: Int
        /// What it gave, the most frequent first.
        public var values: [ValueCount]
        /// Evaluations whose value was not kept (past the distinct values kept).
        public var otherValues: Int
        /// The expressions inside it.
        public var children: [Expression]

        /// Makes an expression's entry.
        public init(
            text: String, location: SourceLocation, evaluations: Int, values: [ValueCount], otherValues: Int = 0,
            children: [Expression] = []
        ) {
            self.text = text
            self.location = location
            self.evaluations = evaluations
            self.values = values
            self.otherValues = otherValues
            self.children = children
        }

        /// How many times it gave `value`.
        public func count(of value: CoverageValue) -> Int {
            values.first { $0.value == value }?.count ?? 0
        }
    }

    /// A value and how many times an expression gave it.
    public struct ValueCount: Sendable, Hashable {
        /// The value.
        public var value: CoverageValue
        /// How many times.
        public var count: Int

        /// Makes a count.
        public init(value: CoverageValue, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// One rule and its expression tree.
    public struct Rule: Sendable, Hashable {
        /// Which rule.
        public var reference: RuleReference
        /// The rule's expression, with the expressions inside it.
        public var expression: Expression

        /// Makes a rule's entry.
        public init(reference: RuleReference, expression: Expression) {
            self.reference = reference
            self.expression = expression
        }
    }

    /// The file's name.
    public var file: String
    /// The file's text.
    public var text: String
    /// Every rule, in the order of the file.
    public var rules: [Rule]
    /// The latest refusals, the latest last.
    public var denials: [RuleDenial]
    /// How many requests were refused in all.
    public var deniedTotal: Int

    /// Makes a report.
    public init(file: String, text: String, rules: [Rule], denials: [RuleDenial], deniedTotal: Int) {
        self.file = file
        self.text = text
        self.rules = rules
        self.denials = denials
        self.deniedTotal = deniedTotal
    }
}
