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

    /// The counts as they are now.
    public var counts: EngineCounts {
        EngineCounts(appliedWrites: data.appliedSequence, sessions: sessions.count, readsWaiting: waiters.reads)
    }

    /// Returns once `condition` holds for ``counts`` (at once if it does now).
    public func until(_ condition: @escaping @Sendable (EngineCounts) -> Bool) async {
        if condition(counts) { return }
        await withCheckedContinuation { waiters.add(EngineWaiters.Barrier(holds: condition, continuation: $0)) }
    }

    /// Resumes the barriers that hold now; called after every change of ``counts``.
    func countsChanged() {
        guard waiters.hasBarriers else { return }
        waiters.release(at: counts)
    }
}
