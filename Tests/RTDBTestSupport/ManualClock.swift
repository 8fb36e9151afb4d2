import Foundation
import Synchronization

/// A clock in ms since the epoch that moves only when a test moves it, so tests about expiry
/// and time do not depend on how busy the machine is.
public final class ManualClock: Sendable {
    private let millis: Mutex<Int64>

    /// Starts at `start` (the wall clock by default).
    public init(start: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) {
        millis = Mutex(start)
    }

    /// The current time, ms since the epoch.
    public var now: Int64 { millis.withLock { $0 } }

    /// The current time in whole seconds (as `iat` and `exp` claims count it).
    public var nowSeconds: Int64 { now / 1000 }

    /// Moves the clock on.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        millis.withLock { $0 += seconds * 1000 + attoseconds / 1_000_000_000_000_000 }
    }

    /// The clock as the closure servers and clients take.
    public var read: @Sendable () -> Int64 { { [self] in now } }
}
