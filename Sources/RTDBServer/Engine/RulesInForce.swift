import RTDBRules

/// The security rules a namespace checks every request against, and whether they are still the
/// ones it opened with (`/.settings/rules.json` replaces them in memory only, so a namespace with
/// replaced rules is not idle: closing it would lose them).
struct RulesInForce {
    /// The rules, counting their own evaluations.
    private(set) var rules: SecurityRules
    /// Whether they replaced the ones it opened with.
    private(set) var replaced = false

    /// `rules` in force, counted from nothing for this namespace.
    init(_ rules: SecurityRules) { self.rules = rules.withNewCoverage() }

    /// Puts `rules` in force instead, counted from nothing.
    mutating func replace(with rules: SecurityRules) {
        self.rules = rules.withNewCoverage()
        replaced = true
    }
}
