import RTDBCore

/// The rules of one level of the tree: its `.read`, `.write`, `.validate` and `.indexOn`, the
/// rules of named children, and at most one `$wildcard` for every other child.
final class RuleNode: Sendable {
    /// A rule: its parsed expression, and what names it (text, kind, path, place).
    ///
    /// A class: the rules are walked on every request, and a reference is one retain where the
    /// value would be one per string it names.
    final class Rule: Sendable {
        let expression: RuleExpression
        let reference: RuleReference

        init(expression: RuleExpression, reference: RuleReference) {
            self.expression = expression
            self.reference = reference
        }

        /// The rule as written.
        var text: String { reference.text }
    }

    let read: Rule?
    let write: Rule?
    let validate: Rule?
    /// The children queries may order by (accepted; the server orders without indexes).
    let indexOn: [String]
    /// Named children, matched to data keys by code units (``CodeUnitString``).
    let children: [CodeUnitString: RuleNode]
    /// The `$name` of the wildcard, with its rules.
    let wildcard: (name: String, node: RuleNode)?

    init(
        read: Rule? = nil, write: Rule? = nil, validate: Rule? = nil, indexOn: [String] = [],
        children: [CodeUnitString: RuleNode] = [:], wildcard: (name: String, node: RuleNode)? = nil
    ) {
        self.read = read
        self.write = write
        self.validate = validate
        self.indexOn = indexOn
        self.children = children
        self.wildcard = wildcard
    }

    /// The rules for child `key`: a named child first, else the wildcard (binding its variable).
    func child(_ key: String, variables: inout [String: String]) -> RuleNode? {
        if let named = children[CodeUnitString(key)] { return named }
        guard let wildcard else { return nil }
        variables[wildcard.name] = key
        return wildcard.node
    }

    /// Whether a write's new data matters anywhere here or below: a `.validate`, or a `.write`
    /// that looks at `newData`.
    var judgesNewData: Bool {
        validate != nil || (write?.expression.mentions(["newData"]) ?? false)
            || children.values.contains(where: \.judgesNewData) || (wildcard?.node.judgesNewData ?? false)
    }

    /// Whether any `.read` here or below reads stored data (such reads are checked again after
    /// writes).
    var readsDependOnData: Bool {
        (read?.expression.readsData ?? false) || children.values.contains(where: \.readsDependOnData)
            || (wildcard?.node.readsDependOnData ?? false)
    }
}
