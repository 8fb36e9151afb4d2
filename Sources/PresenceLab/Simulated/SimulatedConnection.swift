import DequeModule
import RTDBClient
import RTDBCore
import RTDBServer
import Synchronization

/// One connection through a ``SimulatedLink``: two lanes of items in flight, the client's end
/// (the engine's transport events) and the server's (an ``InProcessSession``).
final class SimulatedConnection: TransportConnection, Sendable {
    /// What travels in a lane.
    enum Item: Sendable {
        /// The client opens the connection (to the server).
        case open
        /// The server took it (to the client).
        case opened
        /// A protocol frame, either way.
        case frame(String)
        /// The client closed it (to the server).
        case close
        /// The server's end closed (to the client), and why.
        case closed(String?)
        /// The server's heartbeat asks whether the client is there (a WebSocket ping, to the client).
        case ping
        /// The client's WebSocket answers a ping by itself (to the server).
        case pong
    }

    private struct Lane {
        var items: Deque<(due: Duration?, item: Item)> = []
        var last = Duration.zero
    }

    private struct State {
        var toServer = Lane()
        var toClient = Lane()
        var session: InProcessSession?
        /// The client has been told the connection ended (or closed it): nothing more reaches it.
        var clientDone = false
        /// The server's session ended, or was never made: nothing more reaches it.
        var serverDone = false
        /// Whether the server heard from the client since its last heartbeat tick.
        var heard = true
    }

    private let link: SimulatedLink
    private let onEvent: @Sendable (TransportEvent) -> Void
    private let state = Mutex(State())

    init(link: SimulatedLink, onEvent: @escaping @Sendable (TransportEvent) -> Void) {
        self.link = link
        self.onEvent = onEvent
    }

    /// Whether both ends are done with it.
    var isOver: Bool { state.withLock { $0.clientDone && $0.serverDone } }

    func send(_ frame: String) { send(.frame(frame), toServer: true) }

    func close() {
        let first = state.withLock { state -> Bool in
            guard !state.clientDone else { return false }
            state.clientDone = true
            state.toClient.items.removeAll()
            return true
        }
        send(.close, toServer: true)
        if first { Task { onEvent(.closed(reason: nil)) } }
    }

    /// Puts `item` in a lane; it arrives when the link says (a blackhole holds it).
    func send(_ item: Item, toServer: Bool) {
        var bytes = 0
        if case .frame(let text) = item { bytes = text.utf8.count }
        let due = state.withLock { state -> Duration?? in
            guard !(toServer ? state.serverDone : state.clientDone) else { return .none }
            let due = link.arrival(ofBytes: bytes, after: toServer ? state.toServer.last : state.toClient.last)
            if toServer {
                state.toServer.items.append((due, item))
                if let due { state.toServer.last = due }
            } else {
                state.toClient.items.append((due, item))
                if let due { state.toClient.last = due }
            }
            return .some(due)
        }
        if case .some(.some(let due)) = due { deliver(toServer: toServer, at: due) }
    }

    /// Delivers what is due in a lane at `due` (on the link's clock): in a task of its own at
    /// once when it is due now, or once the clock reaches it.
    private func deliver(toServer: Bool, at due: Duration) {
        let delay = due - link.now
        guard delay > .zero else {
            Task { flush(toServer: toServer) }
            return
        }
        let deadline = TimerDeadline(after: delay, on: link.time.clock)
        Task {
            try? await deadline.wait()
            flush(toServer: toServer)
        }
    }

    /// Hands over, in order, every item of a lane that is due, while the link is up.
    private func flush(toServer: Bool) {
        while link.isUp {
            let now = link.now
            let next = state.withLock { state -> Item? in
                guard let head = toServer ? state.toServer.items.first : state.toClient.items.first,
                    let due = head.due, due <= now
                else { return nil }
                if toServer { state.toServer.items.removeFirst() } else { state.toClient.items.removeFirst() }
                return head.item
            }
            guard let next else { return }
            if toServer { arriveAtServer(next) } else { arriveAtClient(next) }
        }
    }

    private func arriveAtClient(_ item: Item) {
        let open = state.withLock { state -> Bool in
            if case .closed = item, !state.clientDone {
                state.clientDone = true
                return true
            }
            return !state.clientDone
        }
        guard open else { return }
        switch item {
        case .opened: onEvent(.opened)
        case .frame(let text):
            link.carried(bytes: text.utf8.count, up: false)
            onEvent(.frame(text))
        case .closed(let reason): onEvent(.closed(reason: reason))
        case .ping: send(.pong, toServer: true)
        case .open, .close, .pong: break
        }
    }

    private func arriveAtServer(_ item: Item) {
        switch item {
        case .open:
            let session = link.server.accept(
                deliver: { [weak self] frame in self?.send(.frame(frame), toServer: false) },
                ended: { [weak self] reason in self?.serverEnded(reason) }, connection: self)
            guard let session else {
                state.withLock { $0.serverDone = true }
                send(.closed("connection refused"), toServer: false)
                return
            }
            state.withLock { $0.session = session }
            link.note("\(link.label) opens \(session.sessionID)")
            link.changes.signal()
            send(.opened, toServer: false)
            Task { await session.open() }
            watchHeartbeat()
        case .frame(let text):
            link.carried(bytes: text.utf8.count, up: true)
            let session = state.withLock { state -> InProcessSession? in
                state.heard = true
                return state.serverDone ? nil : state.session
            }
            session?.receive(text)
        case .close:
            let session = state.withLock { state -> InProcessSession? in
                defer { state.serverDone = true }
                return state.serverDone ? nil : state.session
            }
            if let session { Task { await session.close(reason: "closed by the client") } }
        case .pong:
            state.withLock { $0.heard = true }
        case .opened, .closed, .ping:
            break
        }
    }

    /// The server ended the session: the client hears of it through the link.
    private func serverEnded(_ reason: String) {
        state.withLock { $0.serverDone = true }
        send(.closed(reason), toServer: false)
        link.changes.signal()
    }

    /// Ends a session the server has not heard from for a whole heartbeat timeout, and pings the
    /// client at each tick it was heard: a live client's WebSocket answers, so an idle device
    /// stays, and one behind a blackhole does not (as the real server's heartbeat judges).
    private func watchHeartbeat() {
        let time = link.time
        let timeout = link.heartbeat
        Task { [weak self] in
            while true {
                try? await time.sleep(for: timeout)
                guard let self else { return }
                let (silent, session) = state.withLock { state -> (Bool, InProcessSession?) in
                    if state.serverDone { return (false, nil) }
                    defer { state.heard = false }
                    return (!state.heard, state.session)
                }
                guard let session else { return }
                if silent {
                    link.note("\(link.label): the server hears nothing on \(session.sessionID) for a heartbeat")
                    await session.close(reason: "no heartbeat from the client")
                    return
                }
                send(.ping, toServer: false)
            }
        }
    }

    /// Resets both ends at once (the network went down, or the device died).
    func reset(_ reason: String) {
        let (session, tellClient) = state.withLock { state -> (InProcessSession?, Bool) in
            state.toServer.items.removeAll()
            state.toClient.items.removeAll()
            let tellClient = !state.clientDone
            let session = state.serverDone ? nil : state.session
            state.clientDone = true
            state.serverDone = true
            return (session, tellClient)
        }
        if tellClient { Task { onEvent(.closed(reason: reason)) } }
        if let session {
            link.note("\(link.label) resets \(session.sessionID): \(reason)")
            Task { await session.close(reason: reason) }
        }
    }

    /// The server process died: its end is gone without a word, and the client hears of it
    /// through the link.
    func serverDied() {
        let wasOpen = state.withLock { state -> Bool in
            defer {
                state.serverDone = true
                state.session = nil
                state.toServer.items.removeAll()
            }
            return !state.serverDone
        }
        if wasOpen { send(.closed("connection reset by the server"), toServer: false) }
    }

    /// The link is up again: what waited in it travels now.
    func release() {
        var dues: [(toServer: Bool, due: Duration)] = []
        state.withLock { state in
            for toServer in [true, false] {
                var lane = toServer ? state.toServer : state.toClient
                lane.last = .zero
                for index in lane.items.indices {
                    var bytes = 0
                    if case .frame(let text) = lane.items[index].item { bytes = text.utf8.count }
                    let due = link.arrival(ofBytes: bytes, after: lane.last)
                    lane.items[index].due = due
                    if let due {
                        lane.last = due
                        dues.append((toServer, due))
                    }
                }
                if toServer { state.toServer = lane } else { state.toClient = lane }
            }
        }
        for (toServer, due) in dues { deliver(toServer: toServer, at: due) }
    }
}
