import HeapModule
import Synchronization

/// A clock that moves only when its owner moves it.
///
/// A simulated run's (`chaos --simulated`), or a scripted terminal's. Sleepers wake in the order
/// of their deadlines, and of their sleeps at the same deadline.
///
/// Like swift-clocks' `TestClock`, which the tests use, but with its sleepers in a heap: a run of
/// 100 devices wakes a hundred thousand of them, and a test clock sorts them all at each wake.
public final class ManualClock: Clock, Sendable {
    /// A moment of the clock: how long after its start.
    public struct Instant: InstantProtocol {
        /// Time since the clock started.
        public var offset: Duration

        /// The moment `offset` after the start.
        public init(offset: Duration) { self.offset = offset }
        /// The moment `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// How long from this moment to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper: Comparable {
        var deadline: Duration
        var order: Int
        static func < (lhs: Sleeper, rhs: Sleeper) -> Bool { (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order) }
    }

    private struct State {
        var now = Duration.zero
        var sleepers = Heap<Sleeper>()
        var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
        var cancelledEarly: Set<Int> = []
        var nextOrder = 0
    }

    private let state = Mutex(State())

    /// A clock at its start, with nobody asleep.
    public init() {}

    /// The moment now.
    public var now: Instant { Instant(offset: state.withLock { $0.now }) }
    /// Any: it moves by hand.
    public var minimumResolution: Duration { .zero }

    /// Time since the clock started.
    public var elapsed: Duration { state.withLock { $0.now } }

    /// Sleeps until the clock is moved to `deadline` (at once if it is there).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let order = state.withLock { state -> Int in
            defer { state.nextOrder += 1 }
            return state.nextOrder
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledEarly.remove(order) != nil { return .failure(CancellationError()) }
                    if deadline.offset <= state.now { return .success(()) }
                    state.waiting[order] = continuation
                    state.sleepers.insert(Sleeper(deadline: deadline.offset, order: order))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let continuation = state.waiting.removeValue(forKey: order) else {
                    state.cancelledEarly.insert(order)
                    return nil
                }
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves time on by `duration`, waking each sleeper that falls due on the way in order, with
    /// `turns` yields after each so that what it set off runs at its moment.
    public func advance(by duration: Duration, turns: Int) async {
        let target = state.withLock { $0.now } + duration
        while let continuation = wakeNext(upTo: target) {
            continuation.resume()
            for _ in 0..<turns { await Task.yield() }
        }
    }

    /// Moves time on by `duration` at once, waking every sleeper that falls due on the way (for
    /// a caller that may not wait, like a terminal's input loop).
    public func move(by duration: Duration) {
        let target = state.withLock { $0.now } + duration
        while let continuation = wakeNext(upTo: target) { continuation.resume() }
    }

    /// Moves time on by `duration` while nothing runs, as for a stopped or starved process: the
    /// clock is at the end before any sleeper due on the way wakes, so each finds itself late.
    public func stall(for duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now += duration
            var due: [CheckedContinuation<Void, any Error>] = []
            while let next = state.sleepers.min, next.deadline <= state.now {
                state.sleepers.removeMin()
                if let continuation = state.waiting.removeValue(forKey: next.order) { due.append(continuation) }
            }
            return due
        }
        for continuation in due { continuation.resume() }
    }

    /// Takes the next sleeper due by `target` and moves time to its deadline; with none, moves
    /// time to `target` and returns nil.
    private func wakeNext(upTo target: Duration) -> CheckedContinuation<Void, any Error>? {
        state.withLock { state in
            while let next = state.sleepers.min, next.deadline <= target {
                state.sleepers.removeMin()
                state.now = max(state.now, next.deadline)
                // A sleeper cancelled meanwhile left its entry behind: skipped.
                if let continuation = state.waiting.removeValue(forKey: next.order) { return continuation }
            }
            state.now = max(state.now, target)
            return nil
        }
    }
}
