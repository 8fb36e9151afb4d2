/// A node's priority: a legacy ordering value that still travels on the wire
/// (docs/data-model.md#ordering).
public enum Priority: Sendable, Hashable {
    /// A finite number.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An unresolved server timestamp (or increment) in a pending write.
    case serverValue(ServerValuePlaceholder)

    /// Reads a priority from JSON; `null` means no priority.
    ///
    /// - Throws: ``ValidationError/invalidPriority(path:reason:)`` for booleans, arrays, objects
    ///   that are not server values, and non-finite numbers.
    public init?(json: JSONValue, at path: Path) throws(ValidationError) {
        switch json {
        case .null: return nil
        case .number(let number):
            guard number.isFinite else { throw .invalidPriority(path: path.description, reason: "not finite") }
            self = .number(number)
        case .string(let string):
            self = .string(string)
        case .object:
            guard let serverValue = try ServerValuePlaceholder(json: json, at: path) else {
                throw .invalidPriority(path: path.description, reason: "an object is not a priority")
            }
            self = .serverValue(serverValue)
        case .bool, .array:
            throw .invalidPriority(
                path: path.description, reason: "must be a string, a finite number, null or a server value")
        }
    }

    /// The priority as JSON.
    public var json: JSONValue {
        switch self {
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .serverValue(let value): return value.json
        }
    }

    /// The priority as a leaf value.
    public var leafValue: LeafValue {
        switch self {
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .serverValue(let value): return .serverValue(value)
        }
    }

    /// Three-way priority-order comparison: no priority < numbers < strings.
    public static func compare(_ lhs: Priority?, _ rhs: Priority?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let a?, let b?): return LeafValue.compare(a.leafValue, b.leafValue)
        }
    }
}

extension Priority {
    /// Equal priorities of one kind; strings by code units (``CodeUnitString``).
    public static func == (lhs: Priority, rhs: Priority) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return CodeUnitString.equal(a, b)
        case (.serverValue(let a), .serverValue(let b)): return a == b
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .number(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(1)
            CodeUnitString.hash(value, into: &hasher)
        case .serverValue(let value):
            hasher.combine(2)
            hasher.combine(value)
        }
    }
}
