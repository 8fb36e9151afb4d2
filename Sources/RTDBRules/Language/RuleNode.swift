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
        /// The expression as it runs: compiled once, when the rules are read.
        let compiled: CompiledExpression
        let reference: RuleReference

        /// A rule whose expression names the `wildcards` above it (the topmost first), its parts
        /// numbered in `slots`.
        init(expression: RuleExpression, wildcards: [String], slots: inout CoverageSlots, reference: RuleReference) {
            self.expression = expression
            self.compiled = CompiledExpression(expression, wildcards: wildcards, slots: &slots)
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
    /// ``children`` as a list, looked through when short: comparing a few keys' bytes costs less
    /// than hashing the one looked up (nil when there are many).
    private let fewChildren: [(key: String, node: RuleNode)]?
    /// Whether any rules are below this level (named children or a wildcard).
    let hasChildRules: Bool

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
        fewChildren = children.count <= 8 ? children.map { ($0.key.string, $0.value) } : nil
        hasChildRules = !children.isEmpty || wildcard != nil
    }

    /// The rule of `kind` at this level.
    func rule(_ kind: RuleKind) -> Rule? {
        switch kind {
        case .read: return read
        case .write: return write
        case .validate: return validate
        }
    }

    /// The rules for child `key`, the key at `position` of the path walked: a named child first,
    /// else the wildcard (binding its variable to that position).
    func child(_ key: String, at position: Int, variables: inout RuleVariables) -> RuleNode? {
        if let named = namedChild(key) { return named }
        guard let wildcard else { return nil }
        variables.bind(position: position)
        return wildcard.node
    }

    /// The rules of the child named `key`, not counting the wildcard.
    func namedChild(_ key: String) -> RuleNode? {
        if let fewChildren {
            for (name, node) in fewChildren where CodeUnitString.equal(name, key) { return node }
            return nil
        }
        return children[CodeUnitString(key)]
    }

    /// Whether a write's new data matters anywhere here or below: a `.validate`, or a `.write`
    /// that looks at `newData`.
    var judgesNewData: Bool {
        validate != nil || (write?.expression.mentions(["newData"]) ?? false)
            || children.values.contains(where: \.judgesNewData) || (wildcard?.node.judgesNewData ?? false)
    }

    /// Whether any `.write` here or below reads stored data (`root`, `data`, `newData`).
    var writesReadData: Bool {
        (write?.expression.readsData ?? false) || children.values.contains(where: \.writesReadData)
            || (wildcard?.node.writesReadData ?? false)
    }

    /// Whether any `.read` here or below reads stored data (such reads are checked again after
    /// writes).
    var readsDependOnData: Bool {
        (read?.expression.readsData ?? false) || children.values.contains(where: \.readsDependOnData)
            || (wildcard?.node.readsDependOnData ?? false)
    }
}
