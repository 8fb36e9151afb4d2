extension Path {
    /// Whether the path ends in `.priority` (``ChildKey/priority``): a write here sets its
    /// parent's priority.
    public var isPriorityPath: Bool { back == ChildKey.priority.string }

    /// The node a write to this path is about: its parent for `<path>/.priority` (the one place a
    /// written path may end in a reserved key), else the path itself.
    ///
    /// The written value is validated as that node's, and the path is validated without the
    /// `.priority` key.
    public var writeTarget: Path {
        guard isPriorityPath, let parent else { return self }
        return parent
    }
}
