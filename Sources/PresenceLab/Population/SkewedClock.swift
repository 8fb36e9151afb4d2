import RTDBCore
import Synchronization

/// A device's local clock: the machine's clock plus an offset that can change at any time.
///
/// As when a user sets their clock wrong. Give ``now()`` to `TimeSource.withWall(_:)`.
public final class SkewedClock: Sendable {
    /// The offset in whole milliseconds (an atomic holds a number, not a `Duration`).
    private let offsetMilliseconds: Atomic<Int64>
    private let base: WallClock

    /// Makes a clock `offset` ahead of `base` (the machine's clock by default).
    public init(offset: Duration = .zero, base: @escaping WallClock = { UnixTime.now() }) {
        offsetMilliseconds = Atomic(offset.wholeMilliseconds)
        self.base = base
    }

    /// How far ahead of the machine's clock this one is (negative: behind).
    public var offset: Duration { .milliseconds(offsetMilliseconds.load(ordering: .relaxed)) }

    /// Moves the clock by `delta` (a step, as when a user changes it).
    public func shift(by delta: Duration) {
        offsetMilliseconds.add(delta.wholeMilliseconds, ordering: .relaxed)
    }

    /// The time on this clock.
    @Sendable public func now() -> UnixTime { base() + offset }
}
