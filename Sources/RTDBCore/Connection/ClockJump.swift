/// A step of a device's wall clock that its client noticed: the user set the clock, or NTP did.
///
/// Noticed by comparing the wall clock's progress with a monotonic clock's; the client then moves
/// its server-time offset by the step at once and measures the skew again.
public struct ClockJump: Sendable, Hashable {
    /// When it was noticed (local clock, after the step).
    public var noticedAt: UnixTime
    /// How far the wall clock moved beyond the time that passed (ahead when positive).
    public var by: Duration

    /// Makes a clock jump.
    public init(noticedAt: UnixTime, by: Duration) {
        self.noticedAt = noticedAt
        self.by = by
    }
}
