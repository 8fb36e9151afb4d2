import OrderedCollections

/// A parsed JSON document that keeps integers apart from fractional numbers.
///
/// Firebase data and wire messages are JSON. Foundation's `JSONSerialization` loses the difference
/// between `5` and `5.0` and is slow on Linux, so the engine parses and prints JSON itself
/// (see `JSONParser` and `JSONValue+Serialization.swift`). Objects keep the key order of the source.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, integral or not.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose keys keep their source order.
    case object(Members)

    /// The members of an object, keyed by code units: `"é"` and `"e\u{301}"` are two members, as
    /// they are two keys to Firebase (``CodeUnitString``).
    public typealias Members = OrderedDictionary<CodeUnitString, JSONValue>
}

extension JSONValue {
    /// Makes an integer value.
    public static func int(_ value: Int64) -> JSONValue { .number(.int(value)) }

    /// Makes a fractional (double) value.
    public static func double(_ value: Double) -> JSONValue { .number(.double(value)) }

    /// The members of an object, or nil.
    public var objectValue: JSONValue.Members? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The string, or nil.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, or nil.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The number, or nil.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The integer, if this is a number with an exact 64-bit integer value.
    public var intValue: Int64? { numberValue?.exactInt }

    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is a leaf (null, bool, number or string), not an array or object.
    public var isLeaf: Bool {
        switch self {
        case .null, .bool, .number, .string: return true
        case .array, .object: return false
        }
    }

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[CodeUnitString(key)]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Makes `null`.
    public init(nilLiteral: ()) { self = .null }
    /// Makes a boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Makes an integer.
    public init(integerLiteral value: Int64) { self = .number(.int(value)) }
    /// Makes a double.
    public init(floatLiteral value: Double) { self = .number(.double(value)) }
    /// Makes a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Makes an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Makes an object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members = JSONValue.Members()
        for (key, value) in elements { members[CodeUnitString(key)] = value }
        self = .object(members)
    }
}

extension JSONValue {
    /// Structural equality, strings by code units (``CodeUnitString``).
    ///
    /// `"é"` and `"e\u{301}"` are different values, as they are to Firebase. Objects compare in
    /// member order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return CodeUnitString.equal(a, b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): CodeUnitString.hash(value, into: &hasher)
        case .array(let elements): hasher.combine(elements)
        case .object(let members): hasher.combine(members)
        }
    }
}
