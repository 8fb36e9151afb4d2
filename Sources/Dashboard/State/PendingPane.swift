import RTDBCore

/// What the Pending writes pane's keys act on: the refused write `R` and `X` take, and when `r`
/// last asked to be pressed again (on a server whose rules are not known).
public struct PendingPane: Sendable, Equatable {
    /// The refused write `R` and `X` act on (nil: the newest).
    public var selectedDeadLetter: Int?
    /// When `r` last asked to be pressed again.
    public var confirmationAskedAt: UnixTime?
}
