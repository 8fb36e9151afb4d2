import RTDBClient
import RTDBCore

extension Simulation {
    /// Finds, in the server's latest denials, why the rules refused each of `letters` (the
    /// latest denial at its path), for the dead letters' pane: the client itself hears only
    /// Firebase's `Permission denied`.
    ///
    /// - Returns: The explanations found, by dead letter id (also kept for the snapshots).
    func explain(_ letters: [DeadLetter]) async -> [Int: String] {
        let summary = await rulesSummary()
        guard summary.problem == nil else { return [:] }
        var found: [Int: String] = [:]
        for letter in letters {
            let path = Path(letter.write.path).description
            guard let denial = summary.denials.first(where: { CodeUnitString.equal($0.path, path) }) else { continue }
            found[letter.id] = denial.message + (denial.rule.map { " (\($0.text) at \($0.place))" } ?? "")
        }
        ledger.explained(found)
        return found
    }

    /// The server's rules with their evaluation counts and latest denials (``RulesInspector``).
    public func rulesSummary() async -> RulesSummary {
        await RulesInspector(target: target, server: options.server, credentials: options.credentials).summary()
    }
}
