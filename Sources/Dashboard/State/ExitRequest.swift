/// Whether the loop is to end, and whether because of Ctrl-C (the process then exits 130, as
/// after SIGINT).
public struct ExitRequest: Sendable, Equatable {
    /// Set by `q`: the loop ends.
    public var isQuitting = false
    /// Whether it quits because of Ctrl-C.
    public var isInterrupted = false
}
