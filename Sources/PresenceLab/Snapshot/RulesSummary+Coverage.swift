import RTDBCore
import RTDBRules

extension RulesSummary {
    /// The summary of a coverage report: each line's rules with how often they held, failed or
    /// could not be evaluated, and the denials, the latest first.
    public init(_ report: RulesCoverageReport) {
        var lines = report.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            Line(number: $0.offset + 1, text: String($0.element))
        }
        for rule in report.rules {
            let index = rule.reference.location.line - 1
            guard lines.indices.contains(index) else { continue }
            lines[index].hasRule = true
            for value in rule.expression.values {
                switch value.value {
                case .value(.bool(true)): lines[index].held += value.count
                case .error: lines[index].errors += value.count
                default: lines[index].failed += value.count
                }
            }
            lines[index].failed += rule.expression.otherValues
        }
        self.init(
            file: report.file, lines: lines, ruleCount: report.rules.count,
            rulesEvaluated: report.rules.filter { $0.expression.evaluations > 0 }.count,
            denials: report.denials.reversed().map { denial in
                Denial(
                    at: denial.at, who: denial.who, path: denial.path.description, operation: denial.operation.rawValue,
                    rule: denial.refusal.rule.map { Rule(place: $0.place, text: "\($0.kind.rawValue) \($0.text)") },
                    message: denial.refusal.message)
            }, deniedTotal: report.deniedTotal)
    }
}
