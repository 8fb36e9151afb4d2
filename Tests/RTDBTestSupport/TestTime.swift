import Clocks
import Foundation
import RTDBCore

/// Time that moves only when a test moves it.
///
/// ``timers`` is the clock a server's or client's timers sleep on (heartbeat, connect timeout,
/// back-off, keepalive); ``now`` is a wall clock that follows it, for the
/// times they stamp and compare (expiry, `lastOnline`). A test about time then says "30 s pass"
/// and needs no sleeps racing a loaded machine. (swift-clocks' `TestClock`, after the idea of
/// swift-nio's `EmbeddedEventLoop`.)
public final class TestTime: Sendable {
    /// The clock to hand to servers and clients as their `timers`.
    public let timers = TestClock<Duration>()
    private let start: UnixTime

    /// Starts at `start` (the wall clock by default).
    public init(start: UnixTime = .now()) {
        self.start = start
    }

    /// How much time has been moved on.
    public var elapsed: Duration { TestClock<Duration>.Instant().duration(to: timers.now) }

    /// The current time.
    public var now: UnixTime { start + elapsed }

    /// The current time in whole seconds (as `iat` and `exp` claims count it).
    public var nowSeconds: Int64 { now.secondsSince1970 }

    /// The wall clock as a closure.
    public var wall: WallClock { { [self] in now } }

    /// This time as servers, clients and the lab take it: the wall clock that follows
    /// ``timers``, and ``timers`` to sleep on.
    public var source: TimeSource { TimeSource(wall: wall, clock: timers) }

    /// Moves time on by `duration`, waking every timer that falls due on the way, in order.
    ///
    /// Move a little past a deadline, not onto it: a timer whose task had not yet started
    /// sleeping when the move ended then wakes at once (one due exactly now would wait for the
    /// next move).
    public func advance(by duration: Duration) async {
        await timers.advance(by: duration)
    }
}
