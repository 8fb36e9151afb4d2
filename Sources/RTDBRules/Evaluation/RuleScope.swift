import RTDBCore

/// What one evaluation of a rule sees: the request's values, the location the rule is at, the
/// wildcards' values there, and the new data at that location when the caller has it at hand.
struct RuleScope {
    /// The request's `auth`, `now`, `root` and new root, and the coverage counts.
    let evaluator: RuleEvaluator
    /// Where the rule is.
    let location: RuleLocation
    /// The wildcards above the rule, bound to the data's keys.
    let variables: RuleVariables
    /// `newData`'s node, when known (the checks of `.validate` follow the new data down).
    let newData: Node?

    /// Where the rule is, as a path (made now).
    var path: Path { location.path }
}
