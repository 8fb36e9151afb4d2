/// Why the rules refused a request, and the rule that refused it.
public struct RuleRefusal: Sendable, Hashable, CustomStringConvertible {
    /// In words, for the log and the client.
    public var message: String
    /// The rule that refused; nil when no rule on the way grants anything (refused by default).
    ///
    /// It is the failing `.validate`, or the `.read` or `.write` on the way down that failed with
    /// an error, else the nearest one that did not hold.
    public var rule: RuleReference?

    /// Makes a refusal.
    public init(message: String, rule: RuleReference? = nil) {
        self.message = message
        self.rule = rule
    }

    /// The message.
    public var description: String { message }
}
