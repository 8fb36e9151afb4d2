import RTDBClient
import Synchronization

/// A transport (a real WebSocket by default, or an in-process server's) with a hook on frames:
/// the test can make the link fail at an exact point (a request that is lost on the way, as when
/// a network drops mid-send).
final class InterceptingTransport: Transport {
    /// What to do with an outgoing frame.
    enum Verdict: Sendable {
        case forward
        /// The frame is lost and the connection fails, as a dropped network would do.
        case dropConnection
        /// The frame is silently lost; the connection carries on.
        case swallow
    }

    private let inner: any Transport
    private let rule: Mutex<@Sendable (String) -> Verdict>
    private let inboundRule = Mutex<@Sendable (String) -> Verdict>({ _ in .forward })
    private let opened = Mutex(0)

    init(inner: any Transport = WebSocketTransport(), rule: @escaping @Sendable (String) -> Verdict = { _ in .forward })
    {
        self.inner = inner
        self.rule = Mutex(rule)
    }

    /// How many connections have been opened.
    var connectionCount: Int { opened.withLock { $0 } }

    /// Replaces the rule for frames sent from now on.
    func setRule(_ rule: @escaping @Sendable (String) -> Verdict) { self.rule.withLock { $0 = rule } }

    func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
        opened.withLock { $0 += 1 }
        let connection = InterceptedConnection(transport: self, onEvent: onEvent)
        connection.inner = inner.connect(to: url) { event in connection.deliver(event) }
        return connection
    }

    /// Replaces the rule for frames arriving from the server from now on.
    func setInboundRule(_ rule: @escaping @Sendable (String) -> Verdict) { inboundRule.withLock { $0 = rule } }

    fileprivate func verdict(for frame: String) -> Verdict { rule.withLock { $0 }(frame) }

    fileprivate func inboundVerdict(for frame: String) -> Verdict { inboundRule.withLock { $0 }(frame) }
}

private final class InterceptedConnection: TransportConnection {
    private struct State {
        var inner: (any TransportConnection)?
        var failed = false
    }

    private let transport: InterceptingTransport
    private let onEvent: @Sendable (TransportEvent) -> Void
    private let state = Mutex(State())

    init(transport: InterceptingTransport, onEvent: @escaping @Sendable (TransportEvent) -> Void) {
        self.transport = transport
        self.onEvent = onEvent
    }

    var inner: (any TransportConnection)? {
        get { state.withLock { $0.inner } }
        set { state.withLock { $0.inner = newValue } }
    }

    func deliver(_ event: TransportEvent) {
        guard !state.withLock({ $0.failed }) else { return }
        if case .frame(let text) = event {
            switch transport.inboundVerdict(for: text) {
            case .forward: break
            case .dropConnection: return fail()
            case .swallow: return
            }
        }
        onEvent(event)
    }

    func send(_ frame: String) {
        switch transport.verdict(for: frame) {
        case .forward: inner?.send(frame)
        case .dropConnection: fail()
        case .swallow: break
        }
    }

    private func fail() {
        let alreadyFailed = state.withLock { state in
            defer { state.failed = true }
            return state.failed
        }
        guard !alreadyFailed else { return }
        inner?.close()
        onEvent(.closed(reason: "link dropped by the test"))
    }

    func close() { inner?.close() }
}
