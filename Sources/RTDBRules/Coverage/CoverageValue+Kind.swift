extension CoverageValue {
    /// The values an evaluation can give that the report counts without keeping anything (all
    /// but errors): ``CoverageCounters`` keep one counter per kind.
    enum Kind: Int, CaseIterable {
        case trueValue, falseValue, snapshot, null, string, number, object, other

        /// The value the report shows for this kind.
        var value: CoverageValue {
            switch self {
            case .trueValue: return .value(.bool(true))
            case .falseValue: return .value(.bool(false))
            case .snapshot: return .snapshot
            case .null: return .value(.null)
            case .string: return .string
            case .number: return .number
            case .object: return .object
            case .other: return .other
            }
        }
    }
}

extension RuleValue {
    /// The kind the coverage report counts this value as (a property: looking costs no copy).
    var coverageKind: CoverageValue.Kind {
        switch self {
        case .bool(true): return .trueValue
        case .bool(false): return .falseValue
        case .snapshot: return .snapshot
        case .null: return .null
        case .string: return .string
        case .number: return .number
        case .object: return .object
        case .list, .pattern: return .other
        }
    }
}
