import Clocks
import Foundation

/// Time that moves only when a test moves it.
///
/// ``timers`` is the clock a server's or client's timers sleep on (heartbeat, connect timeout,
/// back-off, keepalive); ``now`` is a wall clock in ms since the epoch that follows it, for the
/// times they stamp and compare (expiry, `lastOnline`). A test about time then says "30 s pass"
/// and needs no sleeps racing a loaded machine. (swift-clocks' `TestClock`, after the idea of
/// swift-nio's `EmbeddedEventLoop`.)
public final class TestTime: Sendable {
    /// The clock to hand to servers and clients as their `timers`.
    public let timers = TestClock<Duration>()
    private let start: Int64

    /// Starts at `start`, ms since the epoch (the wall clock by default).
    public init(start: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) {
        self.start = start
    }

    /// How much time has been moved on.
    public var elapsed: Duration { TestClock<Duration>.Instant().duration(to: timers.now) }

    /// The current time, ms since the epoch.
    public var now: Int64 {
        let (seconds, attoseconds) = elapsed.components
        return start + seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The current time in whole seconds (as `iat` and `exp` claims count it).
    public var nowSeconds: Int64 { now / 1000 }

    /// The wall clock as the closure servers and clients take.
    public var wall: @Sendable () -> Int64 { { [self] in now } }

    /// Moves time on by `duration`, waking every timer that falls due on the way, in order.
    ///
    /// Move a little past a deadline, not onto it: a timer whose task had not yet started
    /// sleeping when the move ended then wakes at once (one due exactly now would wait for the
    /// next move).
    public func advance(by duration: Duration) async {
        await timers.advance(by: duration)
    }
}
