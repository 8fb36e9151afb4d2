import RTDBCore

/// `root`, `data` or `newData`: a variable whose node a rule can read in place, without making a
/// snapshot value of it.
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
}
