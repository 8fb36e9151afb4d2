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

    /// The length of the array `children` read as, as the SDKs' `val()` reads them; nil when
    /// they are not an array's.
    private static func arrayLength(of children: ChildrenMap) -> Int? {
        var maxIndex = -1
        for (key, _) in children {
            guard let int = key.intValue, int >= 0, String(int) == key.string else { return nil }
            maxIndex = max(maxIndex, Int(int))
        }
        return maxIndex < 2 * children.count ? maxIndex + 1 : nil
    }

    private func arrayForm(of children: ChildrenMap) -> JSONValue? {
        guard let length = Node.arrayLength(of: children) else { return nil }
        var elements = [JSONValue](repeating: .null, count: length)
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
            Node.writeMembers(children, to: &output) { child, output in child.writeExport(to: &output) }
            if let priority {
                output.append(contentsOf: #",".priority":"#.utf8)
                priority.json.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}

extension Node {
    /// Appends the node's plain JSON (``plainJSON(arrays:)``'s text) to `output`, written
    /// directly: a read of a million children builds no JSON tree.
    public func writePlain(to output: inout [UInt8], arrays: Bool = false) {
        switch storage {
        case .empty:
            output.append(contentsOf: "null".utf8)
        case .leaf(let value):
            value.json.write(to: &output)
        case .children(let children):
            if arrays, let length = Node.arrayLength(of: children) {
                output.append(UInt8(ascii: "["))
                var next = 0
                for (key, child) in children {
                    // Integer keys come in numeric order; the gaps are nulls.
                    guard let index = key.intValue.map(Int.init) else { continue }
                    while next < index {
                        output.append(contentsOf: next == 0 ? Array("null".utf8) : Array(",null".utf8))
                        next += 1
                    }
                    if next > 0 { output.append(UInt8(ascii: ",")) }
                    child.writePlain(to: &output, arrays: true)
                    next += 1
                }
                while next < length {
                    output.append(contentsOf: next == 0 ? Array("null".utf8) : Array(",null".utf8))
                    next += 1
                }
                output.append(UInt8(ascii: "]"))
                return
            }
            output.append(UInt8(ascii: "{"))
            Node.writeMembers(children, to: &output) { child, output in child.writePlain(to: &output, arrays: arrays) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"key":value` for each child, comma-separated, the value by `writeChild`.
    private static func writeMembers(
        _ children: ChildrenMap, to output: inout [UInt8], _ writeChild: (Node, inout [UInt8]) -> Void
    ) {
        var first = true
        children.forEachInKeyOrder { key, child in
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(key.string, to: &output)
            output.append(UInt8(ascii: ":"))
            writeChild(child, &output)
        }
    }
}
