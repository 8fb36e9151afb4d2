import Synchronization

/// Where the server's time for acknowledged writes goes, stage by stage
/// (`presencetop-bench server-writes --breakdown`).
///
/// Off by default, when each stage costs one relaxed atomic load; on, each stage adds the
/// nanoseconds it took to its total. One process-wide set of totals: for benchmarks, which run
/// one server at a time.
public enum WriteBreakdown {
    /// A stage of a write's way through the server.
    public enum Stage: Int, CaseIterable, Sendable {
        /// The frame's text read into a request: for almost every write straight to its nodes
        /// (`WireWrite`), else parsed (`WireMessage`, `ClientRequest`).
        case parse
        /// Server values resolved (and, for a request read the general way, its data made a
        /// `Node` and validated).
        case convert
        /// The security rules judged it.
        case rules
        /// The working tree updated, the write's log record and the flusher's bookkeeping.
        case apply
        /// The log record's data encoded as JSON text (a write read straight from its text keeps
        /// that text, unless it holds a server value).
        case encode
        /// Its batch committed to SQLite (shared by the batch's writes; it overlaps the others).
        case commit
        /// The stored tree moved on and the listens heard it (fan-out).
        case publish
        /// Its writer's acknowledgement queued.
        case acknowledge
    }

    private static let enabled = Atomic<Bool>(false)
    /// Nanoseconds per stage, then the count of writes published (taken only while timing).
    private static let counts = Mutex([UInt64](repeating: 0, count: Stage.allCases.count + 1))

    /// Starts timing from zero (true) or stops (false).
    public static func measure(_ on: Bool) {
        if on { counts.withLock { $0 = [UInt64](repeating: 0, count: Stage.allCases.count + 1) } }
        enabled.store(on, ordering: .relaxed)
    }

    /// Each stage's total time, and how many writes were published meanwhile.
    public static func totals() -> (writes: Int, stages: [(Stage, Duration)]) {
        let counts = counts.withLock { $0 }
        return (
            Int(counts[Stage.allCases.count]), Stage.allCases.map { ($0, .nanoseconds(Int64(counts[$0.rawValue]))) }
        )
    }

    /// The start of a stage: now when timing, else nil (one atomic load).
    @inline(__always) static func begin() -> ContinuousClock.Instant? {
        enabled.load(ordering: .relaxed) ? ContinuousClock.now : nil
    }

    /// Adds the time since `start` to `stage` (nothing when `start` is nil).
    @inline(__always) static func end(_ stage: Stage, since start: ContinuousClock.Instant?) {
        guard let start else { return }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        counts.withLock { $0[stage.rawValue] &+= UInt64(max(0, nanoseconds)) }
    }

    /// Counts `count` writes published.
    @inline(__always) static func published(_ count: Int) {
        guard enabled.load(ordering: .relaxed) else { return }
        counts.withLock { $0[Stage.allCases.count] &+= UInt64(count) }
    }
}
