import HummingbirdWSClient
import Logging
import NIOSSL
import Synchronization

/// The real transport: a WebSocket (HummingbirdWSClient; TLS via swift-nio-ssl for `wss://`).
public struct WebSocketTransport: Transport {
    /// The TLS settings for `wss://` (nil: the system's trusted roots).
    public var tlsConfiguration: TLSConfiguration?

    /// Makes the transport; pass a TLS configuration to trust other roots (a local certificate).
    public init(tlsConfiguration: TLSConfiguration? = nil) {
        self.tlsConfiguration = tlsConfiguration
    }

    /// Opens a WebSocket; frames are written in order by one task.
    public func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void)
        -> any TransportConnection
    {
        let connection = WebSocketTransportConnection()
        connection.start(url: url, tlsConfiguration: tlsConfiguration, onEvent: onEvent)
        return connection
    }
}

final class WebSocketTransportConnection: TransportConnection {
    private let outgoing: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)

    init() {
        (outgoing, continuation) = AsyncStream.makeStream(of: String.self)
    }

    func start(url: String, tlsConfiguration: TLSConfiguration?, onEvent: @escaping @Sendable (TransportEvent) -> Void)
    {
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
                reason = "\(error)"
            }
            onEvent(.closed(reason: reason))
        }
        task.withLock { $0 = started }
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
        Task {
            try? await Task.sleep(for: .seconds(3))
            running.cancel()
        }
    }
}
