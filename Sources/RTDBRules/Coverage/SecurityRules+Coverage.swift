extension SecurityRules {
    /// The coverage since these rules were read: every rule in the file's order, each expression
    /// with its evaluations, and the latest refusals.
    public func coverageReport() -> RulesCoverageReport {
        let counts = coverage?.counts ?? []
        let denials = coverage?.denials ?? (latest: [], total: 0)
        var rules: [RulesCoverageReport.Rule] = []
        collect(root, into: &rules, counts: counts)
        rules.sort {
            ($0.reference.location.line, $0.reference.location.column) < (
                $1.reference.location.line, $1.reference.location.column
            )
        }
        return RulesCoverageReport(
            file: file, text: text, rules: rules, denials: denials.latest, deniedTotal: denials.total)
    }

    private func collect(
        _ node: RuleNode, into rules: inout [RulesCoverageReport.Rule], counts: [RulesCoverage.Counts]
    ) {
        for rule in [node.read, node.write, node.validate].compactMap({ $0 }) {
            rules.append(.init(reference: rule.reference, expression: entry(rule.expression, counts: counts)))
        }
        for child in node.children.values { collect(child, into: &rules, counts: counts) }
        if let wildcard = node.wildcard { collect(wildcard.node, into: &rules, counts: counts) }
    }

    private func entry(_ expression: RuleExpression, counts: [RulesCoverage.Counts])
        -> RulesCoverageReport.Expression
    {
        let slot = slots.slot(of: expression.location)
        let count = slot.flatMap { counts.indices.contains($0) ? counts[$0] : nil } ?? RulesCoverage.Counts()
        let values = count.values.map { RulesCoverageReport.ValueCount(value: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.value.description) > ($1.count, $0.value.description) }
        return RulesCoverageReport.Expression(
            text: expression.text, location: expression.location, evaluations: count.evaluations, values: values,
            otherValues: count.otherValues, children: expression.operands.map { entry($0, counts: counts) })
    }
}
