import RTDBCore

/// Notices steps of the wall clock: between two looks, the wall clock should move as much as a
/// monotonic clock; a difference past the threshold is a step (set by the user, or by NTP).
///
/// Firebase's SDKs keep the handshake's server-time offset until the next handshake, so after a
/// step their server timestamps and `.info/serverTimeOffset` are off by the step until then.
struct ClockJumpDetector {
    /// Differences below this are drift and scheduling, not a step.
    static let threshold: Duration = .milliseconds(500)

    private let wall: WallClock
    private let elapsed: @Sendable () -> Duration
    private var last: (wall: UnixTime, elapsed: Duration)

    /// Looks at `time`'s wall clock against its clock to wait on (a test moves both by hand).
    init(_ time: TimeSource) {
        self.wall = time.wall
        self.elapsed = time.stopwatch()
        self.last = (wall(), elapsed())
    }

    /// The step since the last look, if the wall clock moved more than the threshold away from
    /// the time that passed.
    mutating func look() -> Duration? {
        let now = (wall: wall(), elapsed: elapsed())
        defer { last = now }
        let step = (now.wall - last.wall) - (now.elapsed - last.elapsed)
        return max(step, .zero - step) > Self.threshold ? step : nil
    }
}
