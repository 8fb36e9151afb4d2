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
    case object(OrderedDictionary<String, JSONValue>)
}

extension JSONValue {
    /// Makes an integer value.
    public static func int(_ value: Int64) -> JSONValue { .number(.int(value)) }

    /// Makes a fractional (double) value.
    public static func double(_ value: Double) -> JSONValue { .number(.double(value)) }

    /// The members of an object, or nil.
    public var objectValue: OrderedDictionary<String, JSONValue>? {
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
        objectValue?[key]
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
        var members = OrderedDictionary<String, JSONValue>()
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}
