import Dispatch
import RTDBCore

/// An engine kept on a serial queue its owner drives, drawing its randomness from a seed: what a
/// simulation needs to replay a run exactly.
///
/// Every queue of a confined engine (its own, its callbacks') targets ``queue``, and its push
/// ids, idempotency keys and back-off jitter come from ``seed``; with every task of the process
/// on the same queue too, the same inputs give the same run (`presencetop chaos --simulated`).
/// A call that must answer at once (``Database/pendingWrites``) runs inline when made on the
/// queue, where a free engine would wait for its own queue.
public struct EngineConfinement: Sendable {
    /// The queue everything of the engine runs on.
    public let queue: DispatchQueue
    /// Where the engine's random draws start.
    public let seed: UInt64

    /// Confines engines to `queue` (marked as such), each drawing from `seed`.
    public init(queue: DispatchQueue, seed: UInt64) {
        self.queue = queue
        self.seed = seed
        queue.setSpecific(key: Self.key, value: true)
    }

    private static let key = DispatchSpecificKey<Bool>()

    /// Whether the caller runs on a confinement queue (or a queue that targets one).
    static var isOnConfinedQueue: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// A generator for one part of the engine: parts draw from streams of their own, so that
    /// one's draws do not move another's.
    func random(for part: UInt64) -> SeededRandom { SeededRandom(seed: seed &* 0x9E37_79B9 &+ part) }
}
