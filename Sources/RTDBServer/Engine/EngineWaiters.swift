/// Who waits inside a namespace: reads held until the writes before them are stored, and
/// barriers (``DatabaseEngine/until(_:)``) waiting for the engine's counts to reach a state.
struct EngineWaiters {
    /// A condition and who waits for it.
    struct Barrier {
        var holds: @Sendable (DatabaseEngine.EngineCounts) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    /// Reads waiting for writes applied before them to be stored.
    var reads = 0
    private var barriers: [Barrier] = []

    /// Adds a barrier (its condition does not hold yet).
    mutating func add(_ barrier: Barrier) { barriers.append(barrier) }

    /// Resumes the barriers whose condition holds for `counts`.
    mutating func release(at counts: DatabaseEngine.EngineCounts) {
        barriers.removeAll { barrier in
            guard barrier.holds(counts) else { return false }
            barrier.continuation.resume()
            return true
        }
    }

    /// Whether any barrier waits.
    var hasBarriers: Bool { !barriers.isEmpty }
}
