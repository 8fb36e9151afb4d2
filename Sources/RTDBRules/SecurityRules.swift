import RTDBCore

/// Firebase security rules: who may read and write where, and what written data must look like
/// (docs/security-rules.md).
///
/// Read and write grants cascade: a rule that allows at a location allows everything below it,
/// and nothing below can take that back. `.validate` does not cascade: it must hold at every
/// location a write changes (the written data and every level above it), except where the write
/// deletes. A multi-location update is allowed or refused as a whole.
public struct SecurityRules: Sendable {
    let root: RuleNode
    /// The text the rules were read from.
    public let text: String
    /// The name the file goes by in messages and references.
    public let file: String
    /// Each expression's evaluations and the latest refusals, since these rules were read; nil
    /// where nothing is to be counted (``unrecorded``).
    public private(set) var coverage: RulesCoverage?
    /// Where each expression's counts live.
    let slots: CoverageSlots
    /// Whether some `.read` rule reads stored data, so that a write can take read access away
    /// (listens are then checked again after writes).
    public let readsDependOnData: Bool
    /// Whether any rule looks at a write's new data; when none does, the data as it would be
    /// after a write is never built.
    let judgesNewData: Bool
    /// Whether judging a write can depend on the data.
    ///
    /// It can when some `.write` reads it, or some rule looks at the new data. When not, writes
    /// can be judged without the ones before them applied (a batch applies them together).
    public let writesDependOnData: Bool
    /// Whether these are the server's own ``open`` rules, which index everything (no `.indexOn`
    /// warnings), as the emulator's do.
    public private(set) var indexesEverything = false

    /// Everyone may read and write everything: what the server uses with no rules file, as the
    /// emulator does.
    public static let open: SecurityRules = {
        do {
            var rules = try SecurityRules(text: #"{"rules": {".read": true, ".write": true}}"#)
            rules.indexesEverything = true
            return rules
        } catch {
            preconditionFailure("the open rules are valid: \(error)")
        }
    }()

    /// The same rules, counting from nothing: copies share their counts, so each namespace makes
    /// its own.
    public func withNewCoverage() -> SecurityRules {
        var rules = self
        rules.coverage = RulesCoverage(slots: slots)
        return rules
    }

    /// The same rules, counting nothing: for checks that are not requests (a dry run).
    public var unrecorded: SecurityRules {
        var rules = self
        rules.coverage = nil
        return rules
    }

    /// Reads and checks rules (`{"rules": {...}}`, comments allowed).
    ///
    /// - Parameter file: The name errors give (the path of a file, or `rules.json`).
    /// - Throws: ``RulesError`` with the line and column of the first problem.
    public init(text: String, file: String = "rules.json") throws(RulesError) {
        do throws(LocatedProblem) {
            let document = try RulesSourceReader.read(text)
            guard case .object(let members, _) = document else {
                throw LocatedProblem(
                    location: document.location, message: "the rules file must be an object, not \(document.kind)")
            }
            guard let rules = members.first(where: { $0.key == "rules" }) else {
                throw LocatedProblem(
                    location: document.location, message: "the rules file needs a top-level \"rules\" object")
            }
            if let other = members.first(where: { $0.key != "rules" }) {
                throw LocatedProblem(
                    location: other.location, message: "unknown top-level key '\(other.key)' (only \"rules\")")
            }
            guard case .object(let ruleMembers, _) = rules.value else {
                throw LocatedProblem(
                    location: rules.value.location, message: "\"rules\" must be an object, not \(rules.value.kind)")
            }
            var slots = CoverageSlots(length: text.count)
            root = try RuleNode.compile(ruleMembers, variables: [], file: file, slots: &slots)
            readsDependOnData = root.readsDependOnData
            judgesNewData = root.judgesNewData
            writesDependOnData = root.judgesNewData || root.writesReadData
            self.text = text
            self.file = file
            self.slots = slots
            coverage = RulesCoverage(slots: slots)
        } catch {
            throw RulesError(file: file, location: error.location, message: error.message)
        }
    }

    /// Whether `auth` may read `path`: some `.read` at or above it holds.
    public func read(_ path: Path, auth: RuleAuth, root data: Node, now: UnixTime) -> RulesDecision {
        if auth == .admin { return .allowed }
        let evaluator = RuleEvaluator(auth: auth.variable, now: now, root: data, newTree: nil, coverage: coverage)
        if let failure = grant(.read, path, evaluator) {
            return .denied(
                RuleRefusal(
                    message: "no .read rule allows reading \(path) (\(auth.description))\(failure.detail)",
                    rule: failure.rule))
        }
        return .allowed
    }

    /// Whether `auth` may make these writes, together: a `.write` at or above each location
    /// holds, and every `.validate` of the data they change holds on the data as it would be.
    ///
    /// - Parameter changes: Each location and the node it is to hold (server values resolved).
    public func write(_ changes: [(path: Path, node: Node)], auth: RuleAuth, root data: Node, now: UnixTime)
        -> RulesDecision
    {
        judgeWrite(changes, auth: auth, root: data, now: now).decision
    }

    /// ``write(_:auth:root:now:)``, with the data as it would be after the writes when the rules
    /// made it (a rule looked beyond the written nodes): a server applying the writes next takes
    /// it instead of making it again; nil when they did not.
    public func judgeWrite(_ changes: [(path: Path, node: Node)], auth: RuleAuth, root data: Node, now: UnixTime)
        -> (decision: RulesDecision, newRoot: Node?)
    {
        if auth == .admin { return (.allowed, nil) }
        // The new tree is made only if a rule looks beyond the written nodes; the caller makes the
        // change itself otherwise (in place).
        let newTree = judgesNewData ? RuleTree(base: data, changes: changes) : nil
        let evaluator = RuleEvaluator(
            auth: auth.variable, now: now, root: data, newTree: newTree, coverage: coverage)
        for (path, _) in changes {
            if let failure = grant(.write, path, evaluator) {
                let message = "no .write rule allows writing \(path) (\(auth.description))\(failure.detail)"
                return (.denied(RuleRefusal(message: message, rule: failure.rule)), newTree?.madeNode)
            }
        }
        guard let newTree else { return (.allowed, nil) }
        // Several changes (an update) share ancestors: each is checked once. One needs no set.
        var validated: Set<Path>? = changes.count > 1 ? [] : nil
        for (path, node) in changes {
            // One change's new data at its path is what it writes (an update's later changes can
            // reach into an earlier one's; a priority is kept beside its node's value).
            let written = changes.count == 1 && !path.isPriorityPath ? node : nil
            if let refusal = validate(path, written: written, evaluator, newTree: newTree, validated: &validated) {
                return (.denied(refusal), newTree.madeNode)
            }
        }
        return (.allowed, newTree.madeNode)
    }

    /// The children `.indexOn` names at `path` (where a wildcard matches too); empty if none.
    public func indexes(at path: Path) -> [String] {
        var node = root
        var variables = RuleVariables()
        for (position, segment) in path.segments.enumerated() {
            guard let next = node.child(segment, at: position, variables: &variables) else { return [] }
            node = next
        }
        return node.indexOn
    }

    /// Walks the rules down `path` until a rule of `kind` holds; nil then, else what went wrong
    /// on the way (the first evaluation error, for the message, or nothing) and the rule to blame:
    /// the one that failed with that error, else the nearest one that did not hold.
    private func grant(_ kind: RuleKind, _ path: Path, _ evaluator: RuleEvaluator)
        -> (detail: String, rule: RuleReference?)?
    {
        var node = root
        var variables = RuleVariables()
        var failure = ""
        var failed: RuleReference?
        var nearest: RuleReference?
        for depth in 0...path.count {
            if let rule = node.rule(kind) {
                switch evaluator.holds(rule, at: RuleLocation(prefixOf: path, depth: depth), variables: variables) {
                case .success(true): return nil
                case .success(false): nearest = rule.reference
                case .failure(let error):
                    if failure.isEmpty {
                        failure = "; \(path.prefix(depth)): \(rule.text): \(error.message)"
                        failed = rule.reference
                    }
                }
            }
            guard depth < path.count, let next = node.child(path.segments[depth], at: depth, variables: &variables)
            else { break }
            node = next
        }
        return (failure, failed ?? nearest)
    }

    /// Checks the `.validate` rules above `path` and of all the new data under it.
    ///
    /// The new data is found only where a rule looks at it, walking on from where it was last
    /// found; at `path` itself it is `written`, when the caller knows it.
    private func validate(
        _ path: Path, written: Node?, _ evaluator: RuleEvaluator, newTree: RuleTree, validated: inout Set<Path>?
    ) -> RuleRefusal? {
        var node = root
        var variables = RuleVariables()
        var found: (depth: Int, node: Node)?
        func newNode(at depth: Int) -> Node {
            if depth == path.count, let written { return written }
            var reached = found ?? (0, newTree.node)
            defer { found = reached }
            while reached.depth < depth {
                reached = (reached.depth + 1, reached.node.child(path.segments[reached.depth]))
            }
            return reached.node
        }
        for depth in 0...path.count {
            if node.validate != nil, case let newNode = newNode(at: depth), !newNode.isEmpty {
                let location = RuleLocation(prefixOf: path, depth: depth)
                if validated?.insert(location.path).inserted ?? true,
                    let failure = Self.check(node, at: location, holding: newNode, evaluator, variables: variables)
                {
                    return failure
                }
            }
            guard depth < path.count else {
                guard node.hasChildRules else { return nil }
                let location = RuleLocation(prefixOf: path, depth: depth)
                return Self.validateBelow(
                    node, at: location, holding: newNode(at: depth), evaluator, variables: variables)
            }
            guard let next = node.child(path.segments[depth], at: depth, variables: &variables) else { return nil }
            node = next
        }
        return nil
    }

    /// The `.validate` rules of the new data below `location`, depth first in key order.
    ///
    /// Static, as ``check(_:at:holding:_:variables:)`` is: the walk's closure then captures no
    /// copy of the rules (a retain and a release of each of their fields, per child).
    private static func validateBelow(
        _ node: RuleNode, at location: RuleLocation, holding newNode: Node, _ evaluator: RuleEvaluator,
        variables: RuleVariables
    ) -> RuleRefusal? {
        guard node.hasChildRules else { return nil }
        var failure: RuleRefusal?
        // A walk of the children, not an iterator (which allocates its stack); after a failure
        // the rest are passed over.
        newNode.children.forEachInKeyOrder { key, newChild in
            guard failure == nil else { return }
            let name = key.string
            // A named child binds nothing: the variables are passed on as they are, not copied.
            if let child = node.namedChild(name) {
                failure = validate(child, name, holding: newChild, variables: variables)
            } else if let wildcard = node.wildcard?.node {
                var childVariables = variables
                childVariables.bind(position: location.count)
                failure = validate(wildcard, name, holding: newChild, variables: childVariables)
            }
        }
        func validate(_ child: RuleNode, _ name: String, holding newChild: Node, variables: RuleVariables)
            -> RuleRefusal?
        {
            guard child.validate != nil || child.hasChildRules else { return nil }
            let childLocation = RuleLocation(name, below: location)
            return check(child, at: childLocation, holding: newChild, evaluator, variables: variables)
                ?? validateBelow(child, at: childLocation, holding: newChild, evaluator, variables: variables)
        }
        return failure
    }

    /// One location's `.validate`; skipped where the new data is gone (a delete).
    private static func check(
        _ node: RuleNode, at location: RuleLocation, holding newNode: Node, _ evaluator: RuleEvaluator,
        variables: RuleVariables
    ) -> RuleRefusal? {
        guard let rule = node.validate, !newNode.isEmpty else { return nil }
        switch evaluator.holds(rule, at: location, variables: variables, newData: newNode) {
        case .success(true): return nil
        case .success(false):
            return RuleRefusal(
                message: "\(location.path): .validate \(rule.text) does not hold", rule: rule.reference)
        case .failure(let error):
            return RuleRefusal(
                message: "\(location.path): .validate \(rule.text): \(error.message)", rule: rule.reference)
        }
    }
}
