import Synchronization

/// Hands a session's requests to its namespace in order and in batches, from a task that exists
/// only while there are requests to hand over: everything that arrived meanwhile goes in one hop
/// to the namespace's actor, and an idle session holds no task for it.
final class RequestPump: Sendable {
    private struct State {
        var items: [SessionRequest] = []
        var running: Task<Void, Never>?
        var finished = false
    }

    private let handle: @Sendable ([SessionRequest]) async -> Void
    private let state = Mutex(State())

    /// Makes a pump that hands each batch to `handle`, one batch at a time.
    init(handle: @escaping @Sendable ([SessionRequest]) async -> Void) {
        self.handle = handle
    }

    /// Queues a request, starting the pump's task if it is not running (dropped once finished).
    func append(_ request: SessionRequest) {
        state.withLock { state in
            guard !state.finished else { return }
            state.items.append(request)
            if state.running == nil {
                state.running = Task { await self.drain() }
            }
        }
    }

    /// Takes no more requests, and calls `body` once every queued one has been handled: at once,
    /// on this thread, when none is on its way (a closing session then needs no task), else from
    /// a task once they are.
    func finish(then body: @escaping @Sendable () -> Void) {
        let running = state.withLock { state in
            state.finished = true
            return state.running
        }
        guard let running else { return body() }
        Task {
            await running.value
            body()
        }
    }

    /// Takes no more requests, and returns once every queued one has been handled.
    func finish() async {
        let running = state.withLock { state in
            state.finished = true
            return state.running
        }
        await running?.value
    }

    private func drain() async {
        while true {
            let batch = state.withLock { state -> [SessionRequest]? in
                guard !state.items.isEmpty else {
                    state.running = nil
                    return nil
                }
                defer { state.items = [] }
                return state.items
            }
            guard let batch else { return }
            await handle(batch)
        }
    }
}
