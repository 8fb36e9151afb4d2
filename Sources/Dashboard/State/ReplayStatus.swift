/// What a replay shows of itself: where its time cursor is (its keys are `KeyMap`'s replay
/// bindings, in the footer while it plays back).
public struct ReplayStatus: Sendable, Equatable {
    /// The cursor, as the status line shows it (`REPLAY 16:00:30.000 UTC ❚❚ ×1  30s of 1m`).
    public var cursor: String

    /// Makes a replay's status.
    public init(cursor: String) {
        self.cursor = cursor
    }
}
