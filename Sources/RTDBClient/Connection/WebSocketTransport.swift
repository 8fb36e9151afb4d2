import HummingbirdWSClient
import Logging
import NIOSSL
import RTDBCore
import Synchronization

/// The real transport: a WebSocket (HummingbirdWSClient; TLS via swift-nio-ssl for `wss://`).
public struct WebSocketTransport: Transport {
    /// The TLS settings for `wss://` (nil: the system's trusted roots).
    public var tlsConfiguration: TLSConfiguration?
    /// How long the TCP connect and the WebSocket upgrade may take together before the attempt
    /// is reported closed (the client library has no bound of its own on the upgrade).
    public var upgradeTimeout: Duration
    /// What the upgrade bound and the close's grace period sleep on.
    public var timers: any Clock<Duration>

    /// Makes the transport; pass a TLS configuration to trust other roots (a local certificate).
    public init(
        tlsConfiguration: TLSConfiguration? = nil, upgradeTimeout: Duration = .seconds(10),
        timers: any Clock<Duration> = ContinuousClock()
    ) {
        self.tlsConfiguration = tlsConfiguration
        self.upgradeTimeout = upgradeTimeout
        self.timers = timers
    }

    /// Opens a WebSocket; frames are written in order by one task.
    public func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void)
        -> any TransportConnection
    {
        let connection = WebSocketTransportConnection(timers: timers)
        connection.start(
            url: url, tlsConfiguration: tlsConfiguration, upgradeTimeout: upgradeTimeout, onEvent: onEvent)
        return connection
    }
}

final class WebSocketTransportConnection: TransportConnection {
    private let outgoing: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let timers: any Clock<Duration>
    /// Whether the upgrade finished (`.opened`) and whether `.closed` was reported: the upgrade
    /// bound and the connection's own end race, and only one `.closed` may go out.
    private let progress = Mutex<(opened: Bool, closed: Bool)>((false, false))

    init(timers: any Clock<Duration>) {
        (outgoing, continuation) = AsyncStream.makeStream(of: String.self)
        self.timers = timers
    }

    func start(
        url: String, tlsConfiguration: TLSConfiguration?, upgradeTimeout: Duration,
        onEvent report: @escaping @Sendable (TransportEvent) -> Void
    ) {
        let onEvent: @Sendable (TransportEvent) -> Void = { [self] event in
            let deliver = self.progress.withLock { state in
                guard !state.closed else { return false }
                if case .opened = event { state.opened = true }
                if case .closed = event { state.closed = true }
                return true
            }
            if deliver { report(event) }
        }
        let outgoing = outgoing
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20
        configuration.autoPing = .disabled
        let started = Task {
            var reason: String?
            do {
                try await WebSocketClient.connect(
                    url: url, configuration: configuration, tlsConfiguration: tlsConfiguration,
                    logger: Logger(label: "presencetop.client.ws")
                ) { inbound, outbound, _ in
                    onEvent(.opened)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in outgoing { try await outbound.write(.text(frame)) }
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 64 << 20) {
                                if case .text(let text) = message { onEvent(.frame(text)) }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            } catch {
                reason = TransportFailure.describe(error)
            }
            onEvent(.closed(reason: reason))
        }
        task.withLock { $0 = started }
        let bound = TimerDeadline(after: upgradeTimeout, on: timers)
        Task { [self] in
            try? await bound.wait()
            guard !progress.withLock({ $0.opened || $0.closed }) else { return }
            onEvent(.closed(reason: "the WebSocket upgrade did not complete within \(upgradeTimeout)"))
            // Should the upgrade still finish, the connection closes at once: nothing is sent on it.
            continuation.finish()
            started.cancel()
        }
    }

    func send(_ frame: String) {
        continuation.yield(frame)
    }

    /// Ends the outgoing stream.
    ///
    /// The writer sends what is queued, then a close frame, so the server sees a clean close at
    /// once. Cancelling right away could drop the socket without either.
    func close() {
        continuation.finish()
        guard let running = task.withLock({ $0 }) else { return }
        let grace = TimerDeadline(after: .seconds(3), on: timers)
        Task {
            try? await grace.wait()
            running.cancel()
        }
    }
}
