/// Which rule an expression is: `.read`, `.write` or `.validate`.
public enum RuleKind: String, Sendable, Hashable, CaseIterable {
    /// `.read`: who may read here and below.
    case read = ".read"
    /// `.write`: who may write here and below.
    case write = ".write"
    /// `.validate`: what written data must look like here.
    case validate = ".validate"
}
