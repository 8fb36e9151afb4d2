extension CoverageValue {
    /// The values an evaluation can give that the report counts without keeping anything (all
    /// but errors): ``CoverageCounters`` keep one counter per kind.
    enum Kind: Int, CaseIterable {
        case trueValue, falseValue, snapshot, null, string, number, object, other

        /// The kind of what an evaluation gave.
        init(_ value: RuleValue) {
            switch value {
            case .bool(true): self = .trueValue
            case .bool(false): self = .falseValue
            case .snapshot: self = .snapshot
            case .null: self = .null
            case .string: self = .string
            case .number: self = .number
            case .object: self = .object
            case .list, .pattern: self = .other
            }
        }

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
