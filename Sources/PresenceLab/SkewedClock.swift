import Foundation
import Synchronization

/// A device's local clock: the machine's clock plus an offset that can change at any time.
///
/// As when a user sets their clock wrong. Give ``now`` to `Database(url:clock:)`.
public final class SkewedClock: Sendable {
    private let offset: Atomic<Int64>
    private let base: @Sendable () -> Int64

    /// Makes a clock `offsetMs` ahead of `base` (the machine's clock by default).
    public init(
        offsetMs: Int64 = 0,
        base: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
    ) {
        offset = Atomic(offsetMs)
        self.base = base
    }

    /// How far ahead of the machine's clock this one is, in ms (negative: behind).
    public var offsetMs: Int64 { offset.load(ordering: .relaxed) }

    /// Moves the clock by `deltaMs` (a step, as when a user changes it).
    public func shift(byMs deltaMs: Int64) {
        offset.add(deltaMs, ordering: .relaxed)
    }

    /// The time on this clock, ms since the epoch.
    @Sendable public func now() -> Int64 { base() + offset.load(ordering: .relaxed) }
}
