import Logging
import RTDBCore
import Synchronization

/// Whether this device's store takes writes: the file system may fill up or fail under it.
///
/// Every write transaction of the ``ClientStore`` reports here. It says so in the log once when
/// writes start failing and once when they work again, never for every write, and the cache
/// report and the dashboard read it.
final class StoreHealth: Sendable {
    private let failure = Mutex<StoreFailure?>(nil)
    private let clock: @Sendable () -> UnixTime
    private let logger: Logger

    /// Starts healthy.
    init(clock: @escaping @Sendable () -> UnixTime, logger: Logger) {
        self.clock = clock
        self.logger = logger
    }

    /// Since when, and why, writes fail (nil: they work).
    var current: StoreFailure? { failure.withLock { $0 } }

    /// A write transaction committed.
    func written() {
        guard
            let ended = failure.withLock({ state -> StoreFailure? in
                defer { state = nil }
                return state
            })
        else { return }
        logger.notice(
            "persistence: this device's store takes writes again, after \(ended.failures) failed since \(ended.since)")
    }

    /// A write transaction failed with `error`.
    func failed(_ error: any Error) {
        let now = clock()
        let started = failure.withLock { state -> Bool in
            if state == nil {
                state = StoreFailure(since: now, reason: "\(error)", failures: 1)
                return true
            }
            state?.failures += 1
            return false
        }
        guard started else { return }
        logger.error(
            "persistence: this device's store cannot be written (\(error)). New writes are refused, writes already queued are kept in memory and still sent, and the cache stops growing until it can"
        )
    }
}

/// Why this device's store does not take writes now.
public struct StoreFailure: Sendable, Hashable {
    /// When writes started failing.
    public var since: UnixTime
    /// The first failure, in SQLite's words (`database or disk is full`, `disk I/O error`).
    public var reason: String
    /// How many write transactions have failed since.
    public var failures: Int
}
