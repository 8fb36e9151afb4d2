import RTDBCore

/// A consistent copy of the whole tree for compaction: the tree as of `sequence`, and which
/// top-level keys changed since the previous checkpoint (nil: rewrite everything).
public struct Checkpoint: Sendable {
    /// The tree.
    public var root: Node
    /// The last write the tree includes.
    public var sequence: UInt64
    /// Top-level keys written since the last checkpoint, or nil for all.
    public var dirtyKeys: Set<CodeUnitString>?

    /// Makes a checkpoint.
    public init(root: Node, sequence: UInt64, dirtyKeys: Set<CodeUnitString>?) {
        self.root = root
        self.sequence = sequence
        self.dirtyKeys = dirtyKeys
    }
}
