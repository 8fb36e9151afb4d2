import OrderedCollections

extension Node {
    /// The node in export format: plain JSON plus priorities.
    ///
    /// A leaf with a priority becomes `{".value": v, ".priority": p}`. Children come in key order.
    public var exportJSON: JSONValue {
        switch storage {
        case .empty:
            return .null
        case .leaf(let value):
            guard let priority else { return value.json }
            return [".value": value.json, ".priority": priority.json]
        case .children(let children):
            var members = JSONValue.Members(minimumCapacity: children.count + 1)
            children.forEachInKeyOrder { key, child in members[key.codeUnitString] = child.exportJSON }
            if let priority { members[".priority"] = priority.json }
            return .object(members)
        }
    }

    /// The node as plain JSON, without priorities.
    ///
    /// - Parameter arrays: When true, a node whose keys are all non-negative integers with the
    ///   largest below twice the count comes out as an array (missing entries `null`), as the
    ///   SDKs' `val()` does.
    public func plainJSON(arrays: Bool = false) -> JSONValue {
        switch storage {
        case .empty:
            return .null
        case .leaf(let value):
            return value.json
        case .children(let children):
            if arrays, let array = arrayForm(of: children) { return array }
            var members = JSONValue.Members(minimumCapacity: children.count)
            children.forEachInKeyOrder { key, child in members[key.codeUnitString] = child.plainJSON(arrays: arrays) }
            return .object(members)
        }
    }

    /// The node as a REST `?shallow=true` read returns it: a leaf as itself, children as `true`.
    public var shallowJSON: JSONValue {
        guard case .children(let children) = storage else { return plainJSON() }
        var members = JSONValue.Members(minimumCapacity: children.count)
        children.forEachInKeyOrder { key, _ in members[key.codeUnitString] = true }
        return .object(members)
    }

    private func arrayForm(of children: ChildrenMap) -> JSONValue? {
        var maxIndex = -1
        for (key, _) in children {
            guard let int = key.intValue, int >= 0, String(int) == key.string else { return nil }
            maxIndex = max(maxIndex, Int(int))
        }
        guard maxIndex < 2 * children.count else { return nil }
        var elements = [JSONValue](repeating: .null, count: maxIndex + 1)
        for (key, child) in children {
            guard let index = key.intValue else { return nil }  // every key was checked above
            elements[Int(index)] = child.plainJSON(arrays: true)
        }
        return .array(elements)
    }
}

extension Node {
    /// The export-format JSON text, written directly (no intermediate `JSONValue`).
    public var exportJSONString: String {
        var output: [UInt8] = []
        output.reserveCapacity(estimatedSize)
        writeExport(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the export-format JSON of the node to `output`.
    public func writeExport(to output: inout [UInt8]) {
        switch storage {
        case .empty:
            output.append(contentsOf: "null".utf8)
        case .leaf(let value):
            guard let priority else {
                value.json.write(to: &output)
                return
            }
            output.append(contentsOf: #"{".value":"#.utf8)
            value.json.write(to: &output)
            output.append(contentsOf: #",".priority":"#.utf8)
            priority.json.write(to: &output)
            output.append(UInt8(ascii: "}"))
        case .children(let children):
            output.append(UInt8(ascii: "{"))
            var first = true
            children.forEachInKeyOrder { key, child in
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeString(key.string, to: &output)
                output.append(UInt8(ascii: ":"))
                child.writeExport(to: &output)
            }
            if let priority {
                output.append(contentsOf: #",".priority":"#.utf8)
                priority.json.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
