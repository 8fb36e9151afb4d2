import RTDBCore

extension RulesSummary {
    /// Why the rules refused each write of `letters` (an id and the write's path, as the server
    /// writes paths: `/users/sam`): the latest denial at its path, with the refusing rule when
    /// one refused it; none when the summary could not be read or no denial is at the path.
    ///
    /// The client itself hears only Firebase's `Permission denied`; the server keeps the reason.
    public func explanations(for letters: [(id: Int, path: String)]) -> [Int: String] {
        guard problem == nil else { return [:] }
        var found: [Int: String] = [:]
        for (id, path) in letters {
            guard let denial = denials.first(where: { CodeUnitString.equal($0.path, path) }) else { continue }
            found[id] = denial.message + (denial.rule.map { " (\($0.text) at \($0.place))" } ?? "")
        }
        return found
    }
}
