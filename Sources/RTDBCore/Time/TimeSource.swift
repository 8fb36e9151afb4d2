/// Time as everything that waits or stamps reads it: the one clock type of client, server and
/// lab.
///
/// ``wall`` stamps (push ids, `lastOnline`, token expiry, skew samples); ``clock`` is what timers
/// sleep on and intervals are measured with (connect timeout, back-off, keepalive, heartbeat,
/// orphan grace). ``system`` is the machine's; a test or a simulation hands in one it moves by
/// hand (a `TestClock`, with a wall clock that follows it), so that nothing waits on the machine.
public struct TimeSource: Sendable {
    /// The wall clock.
    public let wall: WallClock
    /// What timers sleep on and intervals are measured with.
    public let clock: any Clock<Duration>

    /// Time from a wall clock and a clock to wait on.
    public init(wall: @escaping WallClock, clock: any Clock<Duration>) {
        self.wall = wall
        self.clock = clock
    }

    /// The machine's time.
    public static var system: TimeSource { TimeSource(wall: { UnixTime.now() }, clock: ContinuousClock()) }

    /// The current wall-clock time.
    public func now() -> UnixTime { wall() }

    /// Sleeps for `duration` on ``clock``.
    public func sleep(for duration: Duration) async throws {
        try await TimerDeadline(after: duration, on: clock).wait()
    }

    /// A stopwatch started now: how long it has run, on ``clock``.
    public func stopwatch() -> @Sendable () -> Duration { Self.stopwatch(on: clock) }

    /// The same clock to wait on, with another wall clock (a device whose clock is off).
    public func withWall(_ wall: @escaping WallClock) -> TimeSource { TimeSource(wall: wall, clock: clock) }

    private static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
