extension Node {
    /// Reads export-format JSON that was validated before it was stored (a disk cache, a log).
    ///
    /// It skips the key and size checks and path bookkeeping of ``init(json:at:)``, which dominate
    /// loading a large cache; give it only data this program wrote itself.
    public init(trustedJSON json: JSONValue) {
        self = Node.readTrusted(json)
    }

    private static func readTrusted(_ json: JSONValue) -> Node {
        switch json {
        case .null: return .empty
        case .bool(let value): return Node(.bool(value))
        case .number(let number): return Node(.number(number))
        case .string(let string): return Node(.string(string))
        case .array(let elements):
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(elements.count)
            for (offset, element) in elements.enumerated() {
                let child = readTrusted(element)
                if !child.isEmpty { entries.append((ChildKey(String(offset)), child)) }
            }
            return Node(children: ChildrenMap(entries))
        case .object(let members):
            if members[".sv"] != nil, let serverValue = try? ServerValuePlaceholder(json: json, at: .root) {
                return Node(.serverValue(serverValue))
            }
            let priority = members[".priority"].flatMap { try? Priority(json: $0, at: .root) }
            if let value = members[".value"] { return readTrusted(value).withPriority(priority) }
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(members.count)
            for (key, value) in members where key.string.utf8.first != UInt8(ascii: ".") {
                let child = readTrusted(value)
                if !child.isEmpty { entries.append((ChildKey(key.string), child)) }
            }
            return Node(children: ChildrenMap(entries), priority: priority)
        }
    }
}
