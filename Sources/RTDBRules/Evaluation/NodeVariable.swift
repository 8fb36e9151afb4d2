import RTDBCore

/// `root`, `data` or `newData`: the one home of where each finds its data, as a snapshot value
/// or as the node a method reads in place (without making a snapshot).
enum NodeVariable: String, Sendable {
    case root, data, newData

    /// The variable's node in `scope`: `newData` as the write would leave it (what the caller has
    /// at hand when the checks of `.validate` follow the new data down, else found from the root).
    func node(in scope: RuleScope) -> Node {
        switch self {
        case .root: return scope.evaluator.root
        case .data: return scope.evaluator.root.child(at: scope.path)
        case .newData:
            return scope.newData ?? (scope.evaluator.newTree?.node ?? scope.evaluator.root).child(at: scope.path)
        }
    }

    /// The variable as a snapshot value in `scope` (its node found when something asks, unless it
    /// is at hand).
    func snapshot(in scope: RuleScope) -> RuleSnapshot {
        switch self {
        case .root:
            let root = scope.evaluator.root
            return RuleSnapshot(root: .data(root), path: .root, node: root)
        case .data:
            return RuleSnapshot(root: .data(scope.evaluator.root), path: scope.path)
        case .newData:
            let newTree = scope.evaluator.newTree.map(RuleSnapshot.Tree.afterWrite) ?? .data(scope.evaluator.root)
            guard let newData = scope.newData else { return RuleSnapshot(root: newTree, path: scope.path) }
            return RuleSnapshot(root: newTree, path: scope.path, node: newData)
        }
    }
}
