/// Waiting for the engine to reach a state, without polling: a barrier is checked when it is set
/// and again after each change of what it can look at (``EngineCounts``).
extension DatabaseEngine {
    /// What a barrier can wait for.
    public struct EngineCounts: Sendable {
        /// Writes applied since the namespace was created (``sequence``).
        public var appliedWrites: UInt64
        /// Open WebSocket sessions (``sessionCount``).
        public var sessions: Int
        /// Reads (listens, gets, REST reads and streams) waiting for writes applied before them
        /// to be stored.
        public var readsWaiting: Int
    }

    /// A condition and who waits for it.
    struct Barrier {
        var holds: @Sendable (EngineCounts) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    /// The counts as they are now.
    public var counts: EngineCounts {
        EngineCounts(appliedWrites: appliedSequence, sessions: sessions.count, readsWaiting: waitingReads)
    }

    /// Returns once `condition` holds for ``counts`` (at once if it does now).
    public func until(_ condition: @escaping @Sendable (EngineCounts) -> Bool) async {
        if condition(counts) { return }
        await withCheckedContinuation { barriers.append(Barrier(holds: condition, continuation: $0)) }
    }

    /// Resumes the barriers that hold now; called after every change of ``counts``.
    func countsChanged() {
        guard !barriers.isEmpty else { return }
        let now = counts
        barriers.removeAll { barrier in
            guard barrier.holds(now) else { return false }
            barrier.continuation.resume()
            return true
        }
    }
}
