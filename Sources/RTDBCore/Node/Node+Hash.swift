import Crypto
import Foundation

extension Node {
    /// The SDKs' node hash: base64 SHA-1 of the node's hash representation
    /// (docs/wire-protocol.md#the-node-hash).
    ///
    /// The empty node, and a node whose representation is empty, hash to `""`. Servers compare
    /// it with the `h` of listens and transactions; it also serves as the REST ETag.
    public var hashString: String {
        let representation = hashRepresentation
        if representation.isEmpty { return "" }
        let digest = Insecure.SHA1.hash(data: Array(representation.utf8))
        return Data(digest).base64EncodedString()
    }

    /// The string the SDKs hash: the priority part, then the leaf or each child's key and hash.
    public var hashRepresentation: String {
        var representation = ""
        if let priority { representation += "priority:" + Node.leafRepresentation(priority.leafValue) + ":" }
        switch storage {
        case .empty:
            return ""
        case .leaf(let value):
            representation += Node.leafRepresentation(value)
        case .children(let children):
            for (key, child) in Node.priorityOrdered(children) {
                let childHash = child.hashString
                if childHash.isEmpty { continue }
                representation += ":" + key.string + ":" + childHash
            }
        }
        return representation
    }

    static func leafRepresentation(_ value: LeafValue) -> String {
        switch value {
        case .bool(let bool): return "boolean:" + (bool ? "true" : "false")
        case .number(let number): return "number:" + doubleHex(number.doubleValue)
        case .string(let string): return "string:" + string
        case .serverValue(let serverValue): return "string:" + serverValue.json.jsonString
        }
    }

    /// The IEEE-754 bit pattern of `value`, big-endian, as 16 lowercase hex digits.
    static func doubleHex(_ value: Double) -> String {
        let hex = String(value.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Children in priority-index order (priority, then key), as hashes need them.
    static func priorityOrdered(_ children: ChildrenMap) -> [(key: ChildKey, node: Node)] {
        let entries = Array(children)
        // Key order is already right when no child has a priority: the common case.
        if !entries.contains(where: { $0.node.priority != nil }) { return entries }
        return entries.sorted { a, b in
            let order = Priority.compare(a.node.priority, b.node.priority)
            return order != 0 ? order < 0 : ChildKey.compare(a.key, b.key) < 0
        }
    }
}
