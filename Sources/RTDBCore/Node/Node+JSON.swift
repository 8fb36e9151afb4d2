import Foundation
import OrderedCollections

extension Node {
    /// Reads export-format JSON (plain JSON plus `.priority`, `.value` and `.sv`), validating it.
    ///
    /// `null` and empty objects are the empty node; null children are dropped; arrays become
    /// children keyed `"0"`, `"1"`, …; integers stay integers.
    ///
    /// - Parameters:
    ///   - json: The data.
    ///   - path: Where the data will live; used for the depth limit and in error messages.
    /// - Throws: A ``ValidationError`` naming the first problem found.
    public init(json: JSONValue, at path: Path = .root) throws(ValidationError) {
        var reader = JSONNodeReader(base: path)
        self = try reader.read(json)
    }

    /// Reads JSON text in export format (see ``init(json:at:)``).
    public init(jsonString: String, at path: Path = .root) throws {
        self = try Node(json: JSONParser.parse(jsonString), at: path)
    }

    /// A leaf or children node from a plain Swift value, as `setValue` receives it.
    ///
    /// Accepts `nil`/`NSNull`-like `Optional.none`, `Bool`, integers, floating-point numbers,
    /// `String`, arrays and `[String: Any]` dictionaries (export keys allowed).
    public init(any value: Any?, at path: Path = .root) throws(ValidationError) {
        try self.init(json: try JSONValue(any: value, at: path), at: path)
    }
}

extension JSONValue {
    /// Converts a plain Swift value (`Bool`, numbers, `String`, arrays, `[String: Any]`, nil or
    /// `NSNull`) to JSON.
    ///
    /// The types `setValue` receives most are recognised by their exact type first (a metadata
    /// comparison): no dynamic cast, no reflection. Anything else goes the general way.
    ///
    /// - Throws: ``ValidationError/invalidValue(path:reason:)`` for any other type.
    public init(any value: Any?, at path: Path = .root) throws(ValidationError) {
        guard let value else {
            self = .null
            return
        }
        if let json = JSONValue.scalar(value) {
            self = json
            return
        }
        let valueType = type(of: value)
        if valueType == [String: Any].self {
            self = .object(try JSONValue.members(value as! [String: Any], at: path))
            return
        }
        if valueType == [Any].self {
            self = try JSONValue.array(value as! [Any], at: path)
            return
        }
        guard let value = JSONValue.flattenOptional(value) else {
            self = .null
            return
        }
        if let json = JSONValue.scalar(value) ?? JSONValue.bridgedNumber(value) {
            self = json
            return
        }
        switch value {
        case let json as JSONValue: self = json
        case is NSNull: self = .null
        case let serverValue as ServerValuePlaceholder: self = serverValue.json
        case let string as String: self = .string(string)
        case let substring as Substring: self = .string(String(substring))
        case let array as [Any]: self = try JSONValue.array(array, at: path)
        case let dictionary as [String: Any]:
            self = .object(try JSONValue.members(dictionary, at: path))
        case let dictionary as [AnyHashable: Any]:
            var stringKeyed: [String: Any] = [:]
            for (key, element) in dictionary { stringKeyed[String(describing: key.base)] = element }
            self = .object(try JSONValue.members(stringKeyed, at: path))
        default:
            throw .invalidValue(path: path.description, reason: "values of type \(type(of: value)) cannot be stored")
        }
    }

    private static func array(_ array: [Any], at path: Path) throws(ValidationError) -> JSONValue {
        var elements: [JSONValue] = []
        elements.reserveCapacity(array.count)
        for (offset, element) in array.enumerated() {
            if let leaf = scalar(element) {
                elements.append(leaf)
            } else {
                elements.append(try JSONValue(any: element, at: path.child(String(offset))))
            }
        }
        return .array(elements)
    }

    private static func members(_ dictionary: [String: Any], at path: Path) throws(ValidationError) -> Members {
        var members = Members(minimumCapacity: dictionary.count)
        for (key, element) in dictionary.sorted(by: { UTF16Order.lessThan($0.key, $1.key) }) {
            // A leaf needs no path: only a container's conversion can fail, and say where.
            if let leaf = scalar(element) {
                members[CodeUnitString(key)] = leaf
            } else {
                members[CodeUnitString(key)] = try JSONValue(any: element, at: path.child(key))
            }
        }
        return members
    }

    /// Strings, booleans and numbers by their exact type.
    ///
    /// Foundation would bridge `1` to `true` (and back) through NSNumber if a plain `as? Bool`
    /// were tried first. Each `as!` follows the check that the value's type is exactly that type,
    /// so it cannot fail.
    private static func scalar(_ value: Any) -> JSONValue? {
        let type = type(of: value)
        if type == String.self { return .string(value as! String) }
        if type == Int.self { return .int(Int64(value as! Int)) }
        if type == Bool.self { return .bool(value as! Bool) }
        if type == Double.self { return .double(value as! Double) }
        if type == Int64.self { return .int(value as! Int64) }
        if type == Int32.self { return .int(Int64(value as! Int32)) }
        if type == UInt32.self { return .int(Int64(value as! UInt32)) }
        if type == UInt.self {
            return Int64(exactly: value as! UInt).map { .int($0) } ?? .double(Double(value as! UInt))
        }
        if type == Float.self { return .double(Double(value as! Float)) }
        return nil
    }

    /// An `NSNumber` (what Foundation's JSON decoding gives), by what it holds.
    private static func bridgedNumber(_ value: Any) -> JSONValue? {
        guard type(of: value) is NSNumber.Type, let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        default: return .int(number.int64Value)
        }
    }

    /// Unwraps optionals nested inside `Any` (`Optional<Any>.some(Optional<Int>.none)` is nil).
    private static func flattenOptional(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { flattenOptional($0.value) }
    }
}
