import Foundation
import RTDBCore
import RTDBWire
import Synchronization

/// A protocol v5 session with a namespace inside this process: the same frames a WebSocket
/// carries (assembled, parsed, answered and framed by the same code), with no socket.
///
/// Tests run the client engine against a `DatabaseEngine` through it, on the test's clock, so
/// what happens is decided by the engine and the test's time, not by the network or the
/// machine's load.
public final class InProcessSession: Sendable {
    private let engine: DatabaseEngine
    /// The session's id, as its hello says.
    public let sessionID: String
    private let clock: WallClock
    private let configuration: ServerConfiguration
    private let outlet: Outlet
    private let requests: RequestPump
    private let inbound: Mutex<InboundMessages>
    private let ended: Atomic<Bool>
    private let onEnd: @Sendable (String) -> Void

    /// A session that hands every frame for the client to `deliver`, in order, and calls `ended`
    /// once with why it ended (the server closed it, or the client did).
    public init(
        engine: DatabaseEngine, configuration: ServerConfiguration = ServerConfiguration(),
        sessionID: String = "in-process-\(UUID().uuidString.prefix(8))", time: TimeSource = .system,
        deliver: @escaping @Sendable (String) -> Void, ended: @escaping @Sendable (String) -> Void
    ) {
        self.engine = engine
        self.sessionID = sessionID
        self.clock = time.wall
        self.configuration = configuration
        self.onEnd = ended
        let ending = Atomic<Bool>(false)
        self.ended = ending
        let closing = Mutex<(@Sendable () -> Void)?>(nil)
        let outlet = Outlet { item in
            switch item {
            case .wire(let text):
                for frame in WireFraming.frames(for: text) { deliver(frame) }
            case .event:
                break
            case .close:
                closing.withLock { $0 }?()
            }
        }
        self.outlet = outlet
        self.inbound = Mutex(InboundMessages(configuration: configuration, clock: time.wall))
        self.requests = RequestPump { batch in await engine.handle(batch, outlet: outlet) }
        // The server's close ends the session as the client's does.
        closing.withLock { $0 = { [weak self] in Task { await self?.close(reason: "the server closed the session") } } }
    }

    /// Says hello and opens the session in the namespace.
    public func open() async {
        let hello = Handshake(timestamp: clock().millisecondsSince1970, host: "in-process", sessionID: sessionID)
        outlet.send(.wire(WireMessage.control(.hello(hello)).text))
        await engine.openSession(outlet: outlet, sessionID: sessionID)
    }

    /// Takes a frame from the client; requests reach the namespace in order.
    public func receive(_ frame: String) {
        guard !ended.load(ordering: .relaxed) else { return }
        let outlet = outlet
        let taken = inbound.withLock { $0.take(frame, outlet: outlet) { self.tell($0) } }
        switch taken {
        case .nothing: break
        case .request(let request): requests.append(request)
        case .end: Task { await close(reason: "the server closed the session") }
        }
    }

    /// Ends the session: its requests are handled, its onDisconnect writes run, nothing more is
    /// delivered; `ended` is called once.
    public func close(reason: String = "closed") async {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        await requests.finish()
        await engine.closeSession(outlet: outlet)
        outlet.finish()
        onEnd(reason)
    }

    private func tell(_ problem: String) {
        outlet.send(.wire(WireMessage.control(.error(problem)).text))
    }
}
