/// What a replay's key does to its time cursor.
public enum ReplayStep: Sendable, Equatable {
    /// Play or pause (at the end, play again from the start).
    case playPause
    /// To the next / previous change, paused.
    case nextChange, previousChange
    /// 10 s on / back.
    case forward, back
    /// To the start / the end.
    case start, end
    /// Twice / half as fast.
    case faster, slower
}
