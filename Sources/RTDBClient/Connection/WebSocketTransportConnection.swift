import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import RTDBCore
import Synchronization

/// One WebSocket connection of ``WebSocketTransport``, in a SwiftNIO pipeline: swift-nio's HTTP
/// upgrade and frame codec, and ``ClientFrameHandler`` for the session's frames.
///
/// Frames sent from any thread are gathered and written together, with one flush, in one turn of
/// the connection's event loop: a queue of thousands of writes going out costs one hop per batch,
/// not per frame.
final class WebSocketTransportConnection: TransportConnection {
    private struct State {
        /// The connection's channel, once connected.
        var channel: (any Channel)?
        /// The frames handler, once the upgrade is done (frames are only written through it).
        var handler: NIOLoopBound<ClientFrameHandler>?
        /// Frames waiting for the upgrade, or for the next write turn.
        var outbox: [String] = []
        /// Whether a write turn is scheduled on the event loop.
        var writeScheduled = false
        /// Whether ``close()`` was called: nothing more is written, and the close frame goes out.
        var closing = false
        var opened = false
        var closed = false
    }

    private let state = Mutex(State())
    private let timers: any Clock<Duration>
    private let report: @Sendable (TransportEvent) -> Void

    init(timers: any Clock<Duration>, onEvent: @escaping @Sendable (TransportEvent) -> Void) {
        self.timers = timers
        self.report = onEvent
    }

    /// Reports an event unless `.closed` went out already (the upgrade bound and the connection's
    /// own end race, and only one `.closed` may go out).
    private func deliver(_ event: TransportEvent) {
        let deliver = state.withLock { state in
            guard !state.closed else { return false }
            if case .opened = event { state.opened = true }
            if case .closed = event { state.closed = true }
            return true
        }
        if deliver { report(event) }
    }

    func start(url: String, tlsConfiguration: TLSConfiguration?, upgradeTimeout: Duration) {
        let target: WebSocketTarget
        do {
            target = try WebSocketTarget(url: url)
        } catch {
            deliver(.closed(reason: "\(error)"))
            return
        }
        let sslContext: NIOSSLContext?
        do {
            sslContext =
                target.secure ? try NIOSSLContext(configuration: tlsConfiguration ?? .makeClientConfiguration()) : nil
        } catch {
            deliver(.closed(reason: TransportFailure.describe(error)))
            return
        }
        let connected = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try configure(channel, target: target, sslContext: sslContext)
                }
            }
            .connect(host: target.host, port: target.port)
        connected.whenComplete { [self] result in
            switch result {
            case .success(let channel):
                let closeNow = state.withLock { state in
                    state.channel = channel
                    return state.closed || state.closing
                }
                if closeNow { channel.close(promise: nil) }
            case .failure(let error):
                deliver(.closed(reason: TransportFailure.describe(error)))
            }
        }
        let bound = TimerDeadline(after: upgradeTimeout, on: timers)
        Task { [self] in
            try? await bound.wait()
            guard !state.withLock({ $0.opened || $0.closed }) else { return }
            deliver(.closed(reason: "the WebSocket upgrade did not complete within \(upgradeTimeout)"))
            // Should the upgrade still finish, the connection closes at once: nothing is sent on it.
            state.withLock { $0.channel }?.close(promise: nil)
        }
    }

    /// The pipeline: TLS for `wss`, HTTP/1 with the WebSocket upgrade, and the request that asks
    /// for it.
    private func configure(_ channel: any Channel, target: WebSocketTarget, sslContext: NIOSSLContext?) throws {
        let pipeline = channel.pipeline.syncOperations
        if let sslContext {
            try pipeline.addHandler(
                NIOSSLClientHandler(context: sslContext, serverHostname: target.isIPAddress ? nil : target.host))
        }
        try pipeline.addHandler(
            WebSocketUpgradeHandler(
                target: target, upgraded: { [self] channel in try upgraded(channel) },
                refused: { [self] reason in deliver(.closed(reason: reason)) }))
    }

    /// The upgrade is done: frames from now on.
    private func upgraded(_ channel: any Channel) throws {
        let handler = try ClientFrameHandler.add(to: channel.pipeline) { [self] event in deliver(event) }
        let bound = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        let (closing, empty) = state.withLock { state in
            state.handler = bound
            return (state.closing, state.outbox.isEmpty)
        }
        deliver(.opened)
        if closing {
            handler.close()
        } else if !empty {
            writeOutbox()
        }
    }

    func send(_ frame: String) {
        send([frame])
    }

    func send(_ frames: [String]) {
        let schedule = state.withLock { state -> (any EventLoop)? in
            guard !state.closing, !state.closed else { return nil }
            state.outbox.append(contentsOf: frames)
            guard let handler = state.handler, !state.writeScheduled else { return nil }
            state.writeScheduled = true
            return handler.eventLoop
        }
        schedule?.execute { [self] in writeOutbox() }
    }

    /// Writes what waits in the outbox, then flushes once (on the event loop).
    private func writeOutbox() {
        let (handler, frames) = state.withLock { state in
            state.writeScheduled = false
            defer { state.outbox = [] }
            return (state.handler, state.outbox)
        }
        guard let handler, !frames.isEmpty else { return }
        handler.value.write(frames)
    }

    /// Sends what is queued, then a close frame, so the server sees a clean close at once; the
    /// socket closes when the server answers, or after a grace period.
    func close() {
        let (channel, handler) = state.withLock { state in
            state.closing = true
            return (state.channel, state.handler)
        }
        guard let channel else { return }
        if let handler {
            handler.eventLoop.execute { [self] in
                writeOutbox()
                handler.value.close()
            }
        } else {
            // Still upgrading: nothing was sent on it.
            channel.close(promise: nil)
            return
        }
        let grace = TimerDeadline(after: .seconds(3), on: timers)
        Task {
            try? await grace.wait()
            try? await channel.close()
        }
    }
}
