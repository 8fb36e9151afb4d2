import Foundation
import RTDBCore

/// Data at a location at one moment, as listeners and reads receive it.
public struct DataSnapshot: Sendable {
    /// The location.
    public let ref: DatabaseReference
    /// The data.
    public let node: Node
    let index: Index

    init(ref: DatabaseReference, node: Node, index: Index = .priority) {
        self.ref = ref
        self.node = node
        self.index = index
    }

    /// The last key of the location (`""` at the root).
    public var key: String { ref.key ?? "" }

    /// The data as Swift values: `Bool`, `NSNumber`, `String`, `[String: Any]`, `[Any]` for
    /// array-like data, or nil when there is none.
    public var value: Any? { DataSnapshot.swiftValue(node.plainJSON(arrays: true)) }

    /// The data with priorities, in Firebase's export format.
    public var valueInExportFormat: Any? { DataSnapshot.swiftValue(node.exportJSON) }

    /// The priority: a `String`, an `NSNumber`, or nil.
    public var priority: Any? { node.priority.map { DataSnapshot.swiftValue($0.json) } ?? nil }

    /// Whether there is data.
    public func exists() -> Bool { !node.isEmpty }

    /// The number of children.
    public var childrenCount: UInt { UInt(node.childCount) }

    /// Whether there are children.
    public var hasChildren: Bool { node.childCount > 0 }

    /// Whether there is data at a relative path.
    public func hasChild(_ childPathString: String) -> Bool { !node.child(at: Path(childPathString)).isEmpty }

    /// The snapshot of a descendant.
    public func childSnapshot(forPath childPathString: String) -> DataSnapshot {
        DataSnapshot(ref: ref.child(childPathString), node: node.child(at: Path(childPathString)))
    }

    /// The children, in the order of the query that produced the snapshot.
    public var children: [DataSnapshot] {
        IndexedChildren(node, index: index).sorted.map {
            DataSnapshot(ref: ref.child($0.key.string), node: $0.node)
        }
    }

    /// Decodes the data (plain JSON) into a `Decodable` type.
    public func data<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(node.plainJSON(arrays: true).jsonString.utf8))
    }

    static func swiftValue(_ json: JSONValue) -> Any? {
        switch json {
        case .null: return nil
        case .bool(let value): return value
        case .number(.int(let value)): return NSNumber(value: value)
        case .number(.double(let value)): return NSNumber(value: value)
        case .string(let value): return value
        case .array(let elements): return elements.map { swiftValue($0) ?? NSNull() }
        case .object(let members):
            var dictionary: [String: Any] = [:]
            for (key, value) in members { dictionary[key.string] = swiftValue(value) ?? NSNull() }
            return dictionary
        }
    }
}
