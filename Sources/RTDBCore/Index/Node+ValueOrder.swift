extension Node {
    /// Three-way value-order comparison (docs/data-model.md#ordering):
    /// null < false < true < numbers < strings < objects, and all objects compare equal.
    public static func compareValues(_ lhs: Node, _ rhs: Node) -> Int {
        switch (lhs.storage, rhs.storage) {
        case (.empty, .empty): return 0
        case (.empty, _): return -1
        case (_, .empty): return 1
        case (.leaf(let a), .leaf(let b)): return LeafValue.compare(a, b)
        case (.leaf, .children): return -1
        case (.children, .leaf): return 1
        case (.children, .children): return 0
        }
    }
}
