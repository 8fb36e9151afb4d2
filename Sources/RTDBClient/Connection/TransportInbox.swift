import RTDBCore
import Synchronization

/// A transport connection's events on their way to the connection's queue, in order: one hop
/// through the queue takes every event that arrived meanwhile, not one hop an event.
///
/// A draining queue's acknowledgements arrive thousands a second, many in one read of the
/// socket; each was a block of its own on the queue.
final class TransportInbox: Sendable {
    private struct State {
        var events: [TransportEvent] = []
        var firstFrameAt: UnixTime?
    }

    private let state = Mutex(State())
    private let clock: WallClock

    /// An inbox whose first frame is timed on `clock`.
    init(clock: @escaping WallClock) {
        self.clock = clock
    }

    /// Adds an event; true when the inbox was empty, so a hop must be scheduled to take it (one
    /// already scheduled takes it otherwise).
    func put(_ event: TransportEvent) -> Bool {
        state.withLock { state in
            if state.firstFrameAt == nil, case .frame = event { state.firstFrameAt = clock() }
            state.events.append(event)
            return state.events.count == 1
        }
    }

    /// Takes every event waiting, oldest first.
    func take() -> [TransportEvent] {
        state.withLock { state in
            var taken: [TransportEvent] = []
            swap(&taken, &state.events)
            return taken
        }
    }

    /// When the connection's first frame (the server's hello) arrived, on the wall clock: the
    /// hello may wait on the queue (behind a restart's restore), and the round trip and the clock
    /// skew it measures are the network's, not that wait's.
    var firstFrameAt: UnixTime? { state.withLock { $0.firstFrameAt } }
}
