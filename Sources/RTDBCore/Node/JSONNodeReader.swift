/// Reads export-format JSON into a ``Node``, keeping the keys below `base` on a stack: a child's
/// path is made only where an error names it (every write's data is read here).
struct JSONNodeReader {
    let base: Path
    var keys: [String] = []

    init(base: Path) {
        self.base = base
        keys.reserveCapacity(8)
    }

    /// Where the reader stands.
    var path: Path { keys.isEmpty ? base : Path(segments: base.segments + keys) }

    mutating func read(_ json: JSONValue) throws(ValidationError) -> Node {
        let depth = base.count + keys.count
        if depth > Validation.maxDepth { throw .tooDeep(path: path.description, depth: depth) }
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
                let child = try read(element, under: key)
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
            return Node(children: ChildrenMap(entries))
        case .object(let members):
            // Most objects have no key that starts with '.': one pass over the keys spares the
            // lookups of `.sv`, `.priority` and `.value`.
            let dotted = members.keys.contains { $0.string.utf8.first == UInt8(ascii: ".") }
            var priority: Priority?
            if dotted {
                if members[".sv"] != nil, let serverValue = try ServerValuePlaceholder(json: json, at: path) {
                    return Node(.serverValue(serverValue))
                }
                priority = try members[".priority"].flatMap { (value) throws(ValidationError) in
                    try Priority(json: value, at: path)
                }
                if let value = members[".value"] {
                    if members.keys.contains(where: { $0 != ".value" && $0 != ".priority" }) {
                        throw .valueWithChildren(path: path.description)
                    }
                    let leaf = try read(value)
                    if !leaf.isEmpty, !leaf.isLeaf {
                        throw .invalidValue(path: path.description, reason: "'.value' must hold a leaf value")
                    }
                    return leaf.withPriority(priority)
                }
            }
            var entries: [(key: ChildKey, node: Node)] = []
            entries.reserveCapacity(members.count)
            for (member, value) in members {
                let key = member.string
                if dotted, key.utf8.first == UInt8(ascii: "."), Validation.reservedDataKeys.contains(key) { continue }
                try Validation.validateKey(key, at: { path })
                let child = try read(value, under: key)
                if !child.isEmpty { entries.append((ChildKey(key), child)) }
            }
            return Node(children: ChildrenMap(entries), priority: priority)
        }
    }

    /// Reads the child `key`'s data.
    private mutating func read(_ json: JSONValue, under key: String) throws(ValidationError) -> Node {
        keys.append(key)
        defer { keys.removeLast() }
        return try read(json)
    }
}
