/// A moment on an injected clock, fixed when it is made: the one deadline helper of client and
/// server (``Ticker`` for what repeats).
///
/// Fixing it at once, before anything the timer guards can be observed, means a test that sees
/// the attempt (or the wait) and then moves time on always fires it, however late the sleeping
/// task starts.
public struct TimerDeadline: Sendable {
    private let sleep: @Sendable () async throws -> Void

    /// The moment `delay` from now on `clock`.
    public init(after delay: Duration, on clock: any Clock<Duration>) {
        sleep = Self.sleeper(after: delay, on: clock)
    }

    /// Sleeps until the moment (at once if it has passed); throws if the task is cancelled.
    public func wait() async throws { try await sleep() }

    private static func sleeper<C: Clock<Duration>>(
        after delay: Duration, on clock: C
    ) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: delay)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }
}
