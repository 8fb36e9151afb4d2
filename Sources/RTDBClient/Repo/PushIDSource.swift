import RTDBCore
import Synchronization

/// Push ids in server time, made on any thread as the SDKs make them: never a hop onto the
/// engine's queue (a transaction's update block runs on it and may call `childByAutoId()`).
final class PushIDSource: Sendable {
    private let generator: Mutex<PushIDGenerator>
    /// The server-time offset in nanoseconds, as the engine last set it.
    private let offsetNanoseconds = Atomic<Int64>(0)

    /// Ids drawn from `generator`.
    init(_ generator: PushIDGenerator) { self.generator = Mutex(generator) }

    /// The server's time minus this machine's (set on the engine's queue, read anywhere).
    var offset: Duration {
        get { .nanoseconds(offsetNanoseconds.load(ordering: .relaxed)) }
        set {
            let (seconds, attoseconds) = newValue.components
            offsetNanoseconds.store(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
        }
    }

    /// A push id for `now` on this machine's clock, in server time.
    func next(now: UnixTime) -> String {
        let serverNow = now + .milliseconds(offset.wholeMilliseconds)
        return generator.withLock { $0.next(now: serverNow) }
    }
}
