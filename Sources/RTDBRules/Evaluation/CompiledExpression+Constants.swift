import RTDBCore

extension CompiledExpression {
    /// What evaluating a constant (a literal, or an array of them) notes in the coverage counts,
    /// slot by slot, as its compiled closures would note it; nil for anything computed.
    static func constantCounts(_ expression: RuleExpression, _ slots: inout CoverageSlots)
        -> [(slot: Int, kind: CoverageValue.Kind)]?
    {
        switch expression {
        case .literal(let value, let location):
            return slots.number(location).map { [($0, value.coverageKind)] } ?? []
        case .array(let elements, let location):
            var counts: [(slot: Int, kind: CoverageValue.Kind)] = []
            for element in elements {
                guard case .literal = element, let inner = constantCounts(element, &slots) else { return nil }
                counts += inner
            }
            if let slot = slots.number(location) { counts.append((slot, .other)) }
            return counts
        default:
            return nil
        }
    }

    /// The paths a literal argument names (`'a/b'`, or `['a', 'b']`), parsed once; nil if the
    /// argument is computed.
    static func literalPaths(_ arguments: [RuleExpression]) -> [Path]? {
        switch arguments.first {
        case .literal(.string(let text), _): return [Path(text)]
        case .array(let elements, _):
            var paths: [Path] = []
            for element in elements {
                guard case .literal(.string(let text), _) = element else { return nil }
                paths.append(Path(text))
            }
            return paths
        default: return nil
        }
    }
}
