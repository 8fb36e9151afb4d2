import OrderedCollections

extension QueryParams {
    /// The wire query object (`sp sn sin ep en ein l vf i`,
    /// docs/wire-protocol.md#the-query-object), as the JS SDK builds it.
    public var wireObject: JSONValue {
        var members = JSONValue.Members()
        if let start {
            members["sp"] = start.value
            if let name = start.name { members["sn"] = .string(name.string) }
            members["sin"] = .bool(start.inclusive)
        }
        if let end {
            members["ep"] = end.value
            if let name = end.name { members["en"] = .string(name.string) }
            members["ein"] = .bool(end.inclusive)
        }
        if let limit {
            members["l"] = .int(Int64(limit))
            members["vf"] = .string(effectiveViewFrom.rawValue)
        }
        if let wireName = index.wireName { members["i"] = .string(wireName) }
        return .object(members)
    }

    /// The SDKs' query identifier: the wire object with sorted keys, or `"default"` when empty.
    public var queryIdentifier: String {
        guard case .object(let members) = wireObject, !members.isEmpty else { return "default" }
        var sorted = members
        sorted.sort { $0.key < $1.key }
        return JSONValue.object(sorted).jsonString
    }

    /// Reads a wire query object, validating every field.
    ///
    /// - Throws: ``QueryError`` naming the offending field.
    public init(wireObject: JSONValue) throws(QueryError) {
        guard case .object(let members) = wireObject else { throw QueryError("query must be an object") }
        self.init()
        if let i = members["i"] {
            guard case .string(let name) = i else { throw QueryError("query 'i' must be a string") }
            index = Index(wireName: name)
        }
        if let sp = members["sp"] {
            start = Bound(
                value: try QueryParams.boundValue(sp, field: "sp"),
                name: try QueryParams.boundName(members["sn"], field: "sn"),
                inclusive: try QueryParams.flag(members["sin"], field: "sin"))
        }
        if let ep = members["ep"] {
            end = Bound(
                value: try QueryParams.boundValue(ep, field: "ep"),
                name: try QueryParams.boundName(members["en"], field: "en"),
                inclusive: try QueryParams.flag(members["ein"], field: "ein"))
        }
        if let l = members["l"] {
            guard let value = l.intValue, value > 0, value <= Int64(Int32.max) else {
                throw QueryError("query 'l' must be a positive integer")
            }
            limit = Int(value)
            switch members["vf"] {
            case .string("l")?: viewFrom = .left
            case .string("r")?: viewFrom = .right
            case nil: viewFrom = nil
            default: throw QueryError("query 'vf' must be \"l\" or \"r\"")
            }
        }
        try validate()
    }

    /// Checks that bounds suit the index (key-index bounds are strings without names; priority
    /// bounds are strings, numbers or null).
    public func validate() throws(QueryError) {
        for bound in [start, end].compactMap({ $0 }) {
            switch index {
            case .key:
                guard case .string = bound.value else {
                    throw QueryError("orderByKey bounds must be strings")
                }
            case .priority:
                switch bound.value {
                case .string, .number, .null: break
                default: throw QueryError("orderByPriority bounds must be strings, numbers or null")
                }
            case .value, .child: break
            }
        }
    }

    private static func boundValue(_ value: JSONValue, field: String) throws(QueryError) -> JSONValue {
        guard value.isLeaf else { throw QueryError("query '\(field)' must be null, a boolean, a number or a string") }
        if case .number(let number) = value, !number.isFinite { throw QueryError("query '\(field)' must be finite") }
        return value
    }

    private static func boundName(_ value: JSONValue?, field: String) throws(QueryError) -> ChildKey? {
        switch value {
        case nil, .null?: return nil
        case .string(let name)?: return ChildKey(name)
        default: throw QueryError("query '\(field)' must be a string")
        }
    }

    private static func flag(_ value: JSONValue?, field: String) throws(QueryError) -> Bool {
        switch value {
        case nil: return true
        case .bool(let flag)?: return flag
        default: throw QueryError("query '\(field)' must be a boolean")
        }
    }
}
