/// The value of a leaf node.
public enum LeafValue: Sendable, Hashable {
    /// A boolean.
    case bool(Bool)
    /// A number.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An unresolved server value, as held in a client's pending writes.
    case serverValue(ServerValuePlaceholder)

    /// The value as JSON (a server value as its `.sv` placeholder).
    public var json: JSONValue {
        switch self {
        case .bool(let value): return .bool(value)
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .serverValue(let value): return value.json
        }
    }

    /// The rank of the value's type in value order: false/true, then numbers, then strings.
    var typeRank: Int {
        switch self {
        case .bool: return 1
        case .number: return 2
        case .string: return 3
        case .serverValue: return 4
        }
    }

    /// Three-way value-order comparison of two leaves (docs/data-model.md#ordering).
    public static func compare(_ lhs: LeafValue, _ rhs: LeafValue) -> Int {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.number(let a), .number(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.string(let a), .string(let b)): return UTF16Order.compare(a, b)
        default:
            let rankA = lhs.typeRank
            let rankB = rhs.typeRank
            return rankA == rankB ? 0 : (rankA < rankB ? -1 : 1)
        }
    }
}

extension LeafValue {
    /// Equal values of one type; strings by code units (``CodeUnitString``).
    public static func == (lhs: LeafValue, rhs: LeafValue) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return CodeUnitString.equal(a, b)
        case (.serverValue(let a), .serverValue(let b)): return a == b
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeRank)
        switch self {
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): CodeUnitString.hash(value, into: &hasher)
        case .serverValue(let value): hasher.combine(value)
        }
    }
}
