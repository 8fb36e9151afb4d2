import RTDBCore

extension RuleNode {
    /// Builds the rules of one level from the file's object, checking every expression in it.
    ///
    /// - Parameters:
    ///   - variables: The `$variables` of the wildcards above, the topmost first.
    ///   - path: The keys down to this level (wildcards by name), for the rules' references.
    ///   - file: The file's name, for the rules' references.
    ///   - slots: Where each expression's coverage is counted, numbered as the rules are read.
    static func compile(
        _ members: [(key: String, location: SourceLocation, value: RulesSourceValue)], variables: [String],
        path: [String] = [], file: String, slots: inout CoverageSlots
    ) throws(LocatedProblem) -> RuleNode {
        func rule(_ value: RulesSourceValue, _ kind: RuleKind) throws(LocatedProblem) -> Rule {
            try Self.rule(
                value, kind, variables: variables, path: "/" + path.joined(separator: "/"), file: file, slots: &slots)
        }
        var read: Rule?
        var write: Rule?
        var validate: Rule?
        var indexOn: [String] = []
        var children: [CodeUnitString: RuleNode] = [:]
        var wildcard: (name: String, node: RuleNode)?
        for (key, location, value) in members {
            switch key {
            case ".read": read = try rule(value, .read)
            case ".write": write = try rule(value, .write)
            case ".validate": validate = try rule(value, .validate)
            case ".indexOn": indexOn = try self.indexOn(value)
            case _ where key.hasPrefix("."):
                throw LocatedProblem(
                    location: location, message: "unknown rule '\(key)' (expected .read, .write, .validate or .indexOn)"
                )
            default:
                guard case .object(let childMembers, _) = value else {
                    throw LocatedProblem(
                        location: value.location, message: "the rules of '\(key)' must be an object, not \(value.kind)")
                }
                if key.hasPrefix("$") {
                    if let wildcard {
                        throw LocatedProblem(
                            location: location, message: "'\(key)' and '\(wildcard.name)': one wildcard per level")
                    }
                    if variables.contains(key) {
                        throw LocatedProblem(
                            location: location, message: "'\(key)' is already the name of a wildcard above")
                    }
                    guard key.count > 1 else {
                        throw LocatedProblem(location: location, message: "a wildcard needs a name after '$'")
                    }
                    wildcard = (
                        key,
                        try compile(
                            childMembers, variables: variables + [key], path: path + [key], file: file, slots: &slots)
                    )
                } else {
                    guard !key.contains("/") else {
                        throw LocatedProblem(
                            location: location, message: "'\(key)': a key cannot contain '/'; nest the levels")
                    }
                    children[CodeUnitString(key)] = try compile(
                        childMembers, variables: variables, path: path + [key], file: file, slots: &slots)
                }
            }
        }
        return RuleNode(
            read: read, write: write, validate: validate, indexOn: indexOn, children: children, wildcard: wildcard)
    }

    private static func rule(
        _ value: RulesSourceValue, _ kind: RuleKind, variables: [String], path: String, file: String,
        slots: inout CoverageSlots
    ) throws(LocatedProblem) -> Rule {
        func reference(_ text: String, _ location: SourceLocation) -> RuleReference {
            RuleReference(kind: kind, path: path, text: text, file: file, location: location)
        }
        switch value {
        case .bool(let constant, let location):
            let text = constant ? "true" : "false"
            return Rule(
                expression: .literal(.bool(constant), location), wildcards: variables, slots: &slots,
                reference: reference(text, location))
        case .string(let text, let characters, let location):
            // The expression's characters start after the opening quote.
            let start = SourceLocation(
                line: location.line, column: location.column + 1, offset: location.offset < 0 ? -1 : location.offset + 1
            )
            let expression = try RuleParser.parse(text, locations: characters, start: start)
            try RuleTypeChecker(kind: kind, variables: Set(variables)).check(rule: expression)
            return Rule(expression: expression, wildcards: variables, slots: &slots, reference: reference(text, start))
        default:
            throw LocatedProblem(
                location: value.location,
                message: "\(kind.rawValue) must be a string expression or a boolean, not \(value.kind)")
        }
    }

    private static func indexOn(_ value: RulesSourceValue) throws(LocatedProblem) -> [String] {
        switch value {
        case .string(let name, _, _): return [name]
        case .array(let elements, _):
            var names: [String] = []
            for element in elements {
                guard case .string(let name, _, _) = element else {
                    throw LocatedProblem(location: element.location, message: ".indexOn lists child names (strings)")
                }
                names.append(name)
            }
            return names
        default:
            throw LocatedProblem(location: value.location, message: ".indexOn must be a child name or an array of them")
        }
    }
}
