import RTDBCore

/// A user's entry under the presence root as a layout reads it: a JSON value, or the client
/// engine's node itself (read in place: a first list of a million users is not turned into JSON
/// first).
public protocol PresenceEntry {
    /// The member `name`; nil when it is missing or null.
    func member(_ name: String) -> Self?
    /// The members of an object, in key order; nil for anything else.
    var members: [(key: String, value: Self)]? { get }
    /// Whether this is an object (checked without making its members).
    var isObject: Bool { get }
    /// The string, if this is one.
    var text: String? { get }
    /// The integer, if this is a number with an exact 64-bit integer value.
    var integer: Int64? { get }
    /// The kind, for a problem's words (never the content: it may be someone's data).
    var kind: String { get }
}

extension JSONValue: PresenceEntry {
    /// The member `name`; nil when it is missing or null.
    public func member(_ name: String) -> JSONValue? {
        guard let value = self[name], value != .null else { return nil }
        return value
    }

    /// The members of an object, in order; nil for anything else.
    public var members: [(key: String, value: JSONValue)]? {
        objectValue.map { $0.map { ($0.key.string, $0.value) } }
    }

    /// Whether this is an object.
    public var isObject: Bool { objectValue != nil }

    /// The string, if this is one.
    public var text: String? { stringValue }

    /// The exact integer, if this is one.
    public var integer: Int64? { intValue }

    /// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension Node: PresenceEntry {
    /// The child `name`; nil when it is missing.
    public func member(_ name: String) -> Node? {
        let child = child(ChildKey(name))
        return child.isEmpty ? nil : child
    }

    /// The children, in key order; nil for a leaf or the empty node.
    public var members: [(key: String, value: Node)]? {
        let children = children
        return children.isEmpty ? nil : children.map { ($0.key.string, $0.node) }
    }

    /// Whether the node has children.
    public var isObject: Bool { !children.isEmpty }

    /// The string, if this is a string leaf.
    public var text: String? {
        if case .string(let string)? = leafValue { return string }
        return nil
    }

    /// The exact integer, if this is a number leaf with one.
    public var integer: Int64? {
        if case .number(let number)? = leafValue { return number.exactInt }
        return nil
    }

    /// What this node would read as in JSON: `null`, `a boolean`, `a number`, `a string` or `an
    /// object` (data with children reads as an object, as the layout reads it).
    public var kind: String {
        switch leafValue {
        case .bool?: "a boolean"
        case .number?: "a number"
        case .string?: "a string"
        case .serverValue?: "an object"
        case nil: isEmpty ? "null" : "an object"
        }
    }
}

extension PackedValue: PresenceEntry {
    /// The string, if this is one.
    public var text: String? { string }

    /// The exact integer, if this is one.
    public var integer: Int64? { exactInteger }
}
