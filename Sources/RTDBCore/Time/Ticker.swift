import Synchronization

/// Ticks every `period` on an injected clock, at deadlines fixed from the moment it is made
/// (`start + period`, `start + 2 × period`, …).
///
/// Fixing them at once, before anything the ticks guard can be observed, is what lets a test move
/// time on right after seeing a session open or a stream start and know the tick falls due.
///
/// A tick that wakes more than a quarter period after its deadline is late: the process was not
/// running (stopped, swapped out, starved of CPU). The count then starts again from when it woke,
/// a full period to the next tick, instead of a burst of ticks whose deadlines went by meanwhile.
public struct Ticker: Sendable {
    /// A tick, on time or late (``Ticker``).
    public enum Tick: Equatable, Sendable {
        /// Woke within a quarter period of its deadline.
        case onTime
        /// Woke later than that: the process was stalled.
        case late(by: Duration)
    }

    private let nextTick: @Sendable () async -> Tick?

    /// Ticks every `period` on `clock`, from now.
    public init(every period: Duration, on clock: any Clock<Duration>) {
        nextTick = Self.ticks(every: period, on: clock)
    }

    /// Sleeps until the next tick; `nil` if the task was cancelled first.
    public func next() async -> Tick? { await nextTick() }

    private static func ticks<C: Clock<Duration>>(every period: Duration, on clock: C) -> @Sendable () async -> Tick? {
        let deadline = Mutex(clock.now)
        let slack = period / 4
        return {
            let next = deadline.withLock { instant in
                instant = instant.advanced(by: period)
                return instant
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return nil
            }
            let now = clock.now
            let lateness = next.duration(to: now)
            guard lateness > slack else { return .onTime }
            deadline.withLock { $0 = now }
            return .late(by: lateness)
        }
    }
}
