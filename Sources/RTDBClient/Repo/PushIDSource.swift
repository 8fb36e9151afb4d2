import RTDBCore
import Synchronization

/// Push ids in server time, made on any thread as the SDKs make them: never a hop onto the
/// engine's queue (a transaction's update block runs on it and may call `childByAutoId()`).
final class PushIDSource: Sendable {
    private let generator: Mutex<PushIDGenerator>
    /// The server-time offset in ms, as the engine last set it.
    private let offset = Atomic<Int64>(0)

    /// Ids drawn from `generator`.
    init(_ generator: PushIDGenerator) { self.generator = Mutex(generator) }

    /// Takes the server-time offset the next ids are stamped with.
    func setOffset(_ offset: Duration) { self.offset.store(offset.wholeMilliseconds, ordering: .relaxed) }

    /// A push id for `now` on this machine's clock, in server time.
    func next(now: UnixTime) -> String {
        let serverNow = now + .milliseconds(offset.load(ordering: .relaxed))
        return generator.withLock { $0.next(now: serverNow) }
    }
}
