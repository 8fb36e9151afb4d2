import Synchronization

/// Sessions whose connections closed, handed to their namespace together.
///
/// Each close is told when the batch it joined has been closed
/// (``DatabaseEngine/closeSessions(outlets:)``), and those that end while a batch is being closed
/// make up the next. When connections close one by one, each goes at once; when thousands drop
/// together, their onDisconnect writes run as a few batches instead of thousands of single
/// writes, and one task closes each batch: a close queued from an event loop costs no task and no
/// continuation of its own (two hops onto the executor each, for 10,000 at once).
final class ClosingQueue: Sendable {
    private struct State {
        var waiting: [(outlet: Outlet, done: @Sendable () -> Void)] = []
        var running = false
    }

    private let state = Mutex(State())

    /// An empty queue.
    init() {}

    /// Queues `outlet`'s session to be closed in `engine` with the others queued meanwhile;
    /// `done` runs once it is closed, on the task that closed the batch.
    func close(_ outlet: Outlet, in engine: DatabaseEngine, then done: @escaping @Sendable () -> Void) {
        let starts = state.withLock { state in
            state.waiting.append((outlet, done))
            defer { state.running = true }
            return !state.running
        }
        if starts { Task { await self.drain(engine) } }
    }

    /// Closes `outlet`'s session in `engine` with the others queued meanwhile; returns once it is
    /// closed.
    func close(_ outlet: Outlet, in engine: DatabaseEngine) async {
        await withCheckedContinuation { continuation in
            close(outlet, in: engine) { continuation.resume() }
        }
    }

    private func drain(_ engine: DatabaseEngine) async {
        while true {
            let batch = state.withLock { state in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.running = false }
                return state.waiting
            }
            guard !batch.isEmpty else { return }
            await engine.closeSessions(outlets: batch.map(\.outlet))
            for waiter in batch { waiter.done() }
        }
    }
}
