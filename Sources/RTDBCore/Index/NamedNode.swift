/// A child key together with its node, the unit that indexes order.
public struct NamedNode: Sendable, Hashable {
    /// The child's key.
    public var key: ChildKey
    /// The child's data.
    public var node: Node

    /// Pairs a key with a node.
    public init(key: ChildKey, node: Node) {
        self.key = key
        self.node = node
    }

    /// The pair below every real child.
    public static let min = NamedNode(key: .min, node: .empty)
    /// The pair above every real child.
    public static let max = NamedNode(key: .max, node: .empty)
}
