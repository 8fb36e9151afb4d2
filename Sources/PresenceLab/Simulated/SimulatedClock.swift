import HeapModule
import Synchronization

/// The clock of a simulated run: time moves only when the run moves it, and sleepers wake in the
/// order of their deadlines, and of their sleeps at the same deadline.
///
/// Like swift-clocks' `TestClock`, which the tests use, but with its sleepers in a heap: a run of
/// 100 devices wakes a hundred thousand of them, and a test clock sorts them all at each wake.
final class SimulatedClock: Clock, Sendable {
    /// A moment of the run: how long after its start.
    struct Instant: InstantProtocol {
        /// Time since the run started.
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
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

    var now: Instant { Instant(offset: state.withLock { $0.now }) }
    var minimumResolution: Duration { .zero }

    /// Time since the run started.
    var elapsed: Duration { state.withLock { $0.now } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
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
    func advance(by duration: Duration, turns: Int) async {
        let target = state.withLock { $0.now } + duration
        while true {
            let woken = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                while let next = state.sleepers.min, next.deadline <= target {
                    state.sleepers.removeMin()
                    state.now = max(state.now, next.deadline)
                    // A sleeper cancelled meanwhile left its entry behind: skipped.
                    if let continuation = state.waiting.removeValue(forKey: next.order) { return continuation }
                }
                state.now = target
                return nil
            }
            guard let continuation = woken else { return }
            continuation.resume()
            for _ in 0..<turns { await Task.yield() }
        }
    }
}
