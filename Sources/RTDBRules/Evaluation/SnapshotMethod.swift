/// A method of data snapshots (``RuleMethod/snapshot`` has their signatures), resolved from its
/// name when the rules are read.
enum SnapshotMethod: String, Sendable {
    case val, child, parent, exists, hasChild, hasChildren, isNumber, isString, isBoolean, getPriority

    /// Whether its argument is a child path (`child('a/b')`, `hasChild('a')`) or a list of them
    /// (`hasChildren(['a', 'b'])`): a literal one is parsed once, when the rules are read.
    var takesPaths: Bool { self == .child || self == .hasChild || self == .hasChildren }

    /// Whether it reads only the snapshot's node (all but `child` and `parent`, which need its
    /// place): `newData.isString()` then runs without making a snapshot value.
    var readsNodeOnly: Bool { self != .child && self != .parent }
}
