import RTDBCore

/// What the app hands a write, made into what the engine stores: Swift values to JSON on the
/// caller's thread (they are not `Sendable`), JSON to validated nodes on the engine's queue.
enum WriteInput {
    /// Converts a Swift value (and priority) to export JSON on the caller's thread.
    static func exportJSON(_ value: Any?, priority: Any?, at path: Path) throws(ValidationError) -> JSONValue {
        let json = try JSONValue(any: value, at: path)
        guard let priority else { return json }
        let priorityJSON = try JSONValue(any: priority, at: path)
        if case .object(var members) = json {
            members[".priority"] = priorityJSON
            return .object(members)
        }
        return [".value": json, ".priority": priorityJSON]
    }

    /// Converts update values to JSON on the caller's thread (Swift values are not Sendable).
    static func jsonChildren(_ values: [(String, Any?)], at path: Path) throws(ValidationError) -> [(String, JSONValue)]
    {
        var converted: [(String, JSONValue)] = []
        for (key, value) in values { converted.append((key, try JSONValue(any: value, at: path.child(key)))) }
        return converted
    }

    /// Validates update children on the queue: paths that do not overlap, writable data.
    static func updateNodes(_ children: [(String, JSONValue)], at path: Path) throws(ValidationError) -> [(
        path: Path, node: Node
    )] {
        try Validation.validateUpdatePaths(children.map { Path($0.0) }, at: path)
        var nodes: [(path: Path, node: Node)] = []
        for (key, json) in children { nodes.append((Path(key), try node(json, at: path.child(key)))) }
        return nodes
    }

    /// Validates a write target and its data; `.priority` may end the path.
    static func node(_ json: JSONValue, at path: Path) throws(ValidationError) -> Node {
        let target = path.writeTarget
        try Validation.validateWritablePath(target)
        return try Node(json: json, at: target)
    }
}
