/// The evaluations of one decision, gathered without a lock and handed to ``RulesCoverage`` once.
///
/// Not `Sendable`: one decision, on one thread, owns it.
final class CoverageTally {
    /// Each evaluation: where the expression is, and what it gave.
    private(set) var evaluations: [(SourceLocation, CoverageValue)] = []

    /// Notes that the expression at `location` gave `value`.
    func record(_ location: SourceLocation, _ value: CoverageValue) {
        evaluations.append((location, value))
    }
}
