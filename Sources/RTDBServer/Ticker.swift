import Synchronization

/// Ticks every `period` on an injected clock, at deadlines fixed from the moment it is made
/// (`start + period`, `start + 2 × period`, …).
///
/// Fixing them at once, before anything the ticks guard can be observed, is what lets a test move
/// time on right after seeing a session open or a stream start and know the tick falls due.
struct Ticker: Sendable {
    private let nextTick: @Sendable () async -> Bool

    init(every period: Duration, on clock: any Clock<Duration>) {
        nextTick = Self.ticks(every: period, on: clock)
    }

    /// Sleeps until the next tick; `false` if the task was cancelled first.
    func next() async -> Bool { await nextTick() }

    private static func ticks<C: Clock<Duration>>(every period: Duration, on clock: C) -> @Sendable () async -> Bool {
        let deadline = Mutex(clock.now)
        return {
            let next = deadline.withLock { instant in
                instant = instant.advanced(by: period)
                return instant
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
                return true
            } catch {
                return false
            }
        }
    }
}
