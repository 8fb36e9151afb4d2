import RTDBClient
import RTDBCore

extension Simulation {
    /// Finds, in the server's latest denials, why the rules refused each of `letters` (the
    /// latest denial at its path), for the dead letters' pane: the client itself hears only
    /// Firebase's `Permission denied`.
    ///
    /// - Returns: The explanations found, by dead letter id (also kept for the snapshots).
    func explain(_ letters: [DeadLetter]) async -> [Int: String] {
        let found = await rulesSummary().explanations(for: letters.map { ($0.id, Path($0.write.path).description) })
        ledger.explained(found)
        return found
    }

    /// The server's rules with their evaluation counts and latest denials (``RulesInspector``).
    public func rulesSummary() async -> RulesSummary {
        await RulesInspector(target: target, server: options.server, credentials: options.credentials).summary()
    }
}
