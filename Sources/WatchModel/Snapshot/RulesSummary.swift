import RTDBCore

/// The server's rules as the Rules view shows them: the file, line by line, with how often the
/// rules on each line allowed and refused, and the latest requests they refused.
public struct RulesSummary: Sendable, Equatable {
    /// One line of the rules file.
    public struct Line: Sendable, Equatable {
        /// The line's number, from 1.
        public var number: Int
        /// The line as written.
        public var text: String
        /// Whether a rule (`.read`, `.write`, `.validate`) starts on it.
        public var hasRule: Bool
        /// How many times its rules held.
        public var held: Int
        /// How many times they did not hold.
        public var failed: Int
        /// How many times they could not be evaluated (which counts as not holding).
        public var errors: Int

        /// Makes a line.
        public init(number: Int, text: String, hasRule: Bool = false, held: Int = 0, failed: Int = 0, errors: Int = 0) {
            self.number = number
            self.text = text
            self.hasRule = hasRule
            self.held = held
            self.failed = failed
            self.errors = errors
        }

        /// How many times its rules were evaluated.
        public var evaluations: Int { held + failed + errors }
    }

    /// A request the rules refused.
    public struct Denial: Sendable, Equatable {
        /// When, by the server's clock.
        public var at: UnixTime
        /// Who asked (`uid morgan`, `signed out`).
        public var who: String
        /// Where.
        public var path: String
        /// What (`set`, `update`, `read`, `listen`, `revoke`, `onDisconnect`).
        public var operation: String
        /// The refusing rule; nil when no rule grants anything there.
        public var rule: Rule?
        /// The server's message.
        public var message: String

        /// Makes a denial's line.
        public init(
            at: UnixTime, who: String, path: String, operation: String, rule: Rule?, message: String
        ) {
            self.at = at
            self.who = who
            self.path = path
            self.operation = operation
            self.rule = rule
            self.message = message
        }
    }

    /// A rule named by its place and text.
    public struct Rule: Sendable, Equatable {
        /// `FILE:LINE:COLUMN`.
        public var place: String
        /// `.write auth.uid == $uid`.
        public var text: String

        /// Makes a rule's name.
        public init(place: String, text: String) {
            self.place = place
            self.text = text
        }
    }

    /// The file's name.
    public var file: String
    /// The file, line by line.
    public var lines: [Line]
    /// How many rules there are.
    public var ruleCount: Int
    /// How many of them were evaluated at least once.
    public var rulesEvaluated: Int
    /// The latest refusals, the latest first.
    public var denials: [Denial]
    /// How many requests were refused since the rules were read.
    public var deniedTotal: Int
    /// Why the server could not be asked, if it could not.
    public var problem: String?

    /// Makes a summary.
    public init(
        file: String, lines: [Line], ruleCount: Int, rulesEvaluated: Int, denials: [Denial], deniedTotal: Int
    ) {
        self.file = file
        self.lines = lines
        self.ruleCount = ruleCount
        self.rulesEvaluated = rulesEvaluated
        self.denials = denials
        self.deniedTotal = deniedTotal
    }

    /// A summary that says why there is none.
    public init(problem: String) {
        self.init(file: "", lines: [], ruleCount: 0, rulesEvaluated: 0, denials: [], deniedTotal: 0)
        self.problem = problem
    }

}
