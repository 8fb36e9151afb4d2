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
        self = try Node.read(json, at: path)
    }

    /// Reads JSON text in export format (see ``init(json:at:)``).
    public init(jsonString: String, at path: Path = .root) throws {
        self = try Node(json: JSONParser.parse(jsonString), at: path)
    }

    private static func read(_ json: JSONValue, at path: Path) throws(ValidationError) -> Node {
        if path.count > Validation.maxDepth { throw .tooDeep(path: path.description, depth: path.count) }
        switch json {
        case .null:
            return .empty
        case .bool(let value):
            return Node(.bool(value))
        case .number(let number):
            guard number.isFinite else { throw .nonFiniteNumber(path: path.description) }
            return Node(.number(number))
        case .string(let string):
            let bytes = string.utf8.count
            if bytes > Validation.maxStringBytes { throw .stringTooLong(path: path.description, bytes: bytes) }
            return Node(.string(string))
        case .array(let elements):
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(elements.count)
            for (offset, element) in elements.enumerated() {
                let key = String(offset)
                let child = try read(element, at: path.child(key))
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
            return Node(children: ChildrenMap(entries))
        case .object(let members):
            if let serverValue = try ServerValue(json: json, at: path) {
                return Node(.serverValue(serverValue))
            }
            let priority = try members[".priority"].flatMap { (value) throws(ValidationError) in
                try Priority(json: value, at: path)
            }
            if let value = members[".value"] {
                if members.keys.contains(where: { $0 != ".value" && $0 != ".priority" }) {
                    throw .valueWithChildren(path: path.description)
                }
                let leaf = try read(value, at: path)
                if !leaf.isEmpty, !leaf.isLeaf {
                    throw .invalidValue(path: path.description, reason: "'.value' must hold a leaf value")
                }
                return leaf.withPriority(priority)
            }
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(members.count)
            for (key, value) in members {
                try Validation.validateDataKey(key, at: path)
                if key.utf8.first == UInt8(ascii: ".") { continue }
                let child = try read(value, at: path.child(key))
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
            return Node(children: ChildrenMap(entries), priority: priority)
        }
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
    /// Converts a plain Swift value (`Bool`, numbers, `String`, arrays, `[String: Any]`, nil) to JSON.
    ///
    /// - Throws: ``ValidationError/invalidValue(path:reason:)`` for any other type.
    public init(any value: Any?, at path: Path = .root) throws(ValidationError) {
        switch JSONValue.flattenOptional(value) {
        case nil: self = .null
        case let json as JSONValue: self = json
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(Int64(int))
        case let int as Int64: self = .int(int)
        case let int as Int32: self = .int(Int64(int))
        case let int as UInt32: self = .int(Int64(int))
        case let int as UInt: self = Int64(exactly: int).map { .int($0) } ?? .double(Double(int))
        case let double as Double: self = .double(double)
        case let float as Float: self = .double(Double(float))
        case let string as String: self = .string(string)
        case let substring as Substring: self = .string(String(substring))
        case let array as [Any]:
            var elements: [JSONValue] = []
            for (offset, element) in array.enumerated() {
                elements.append(try JSONValue(any: element, at: path.child(String(offset))))
            }
            self = .array(elements)
        case let dictionary as [String: Any]:
            var members = JSONValue.Members()
            for key in dictionary.keys.sorted(by: UTF16Order.lessThan) {
                members[key] = try JSONValue(any: dictionary[key], at: path.child(key))
            }
            self = .object(members)
        default:
            let typeName = value.map { "\(type(of: $0))" } ?? "nil"
            throw .invalidValue(path: path.description, reason: "values of type \(typeName) cannot be stored")
        }
    }

    /// Unwraps optionals nested inside `Any` (`Optional<Any>.some(Optional<Int>.none)` is nil).
    private static func flattenOptional(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { flattenOptional($0.value) }
    }

    /// The member storage of a JSON object.
    public typealias Members = OrderedDictionary<String, JSONValue>
}
