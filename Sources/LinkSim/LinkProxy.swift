import Logging
import NIOCore
import NIOPosix
import RTDBCore
import Synchronization

/// A fault-injecting network link: a TCP proxy on loopback in front of a server.
///
/// A client connects to the link's port instead of the server's; every byte then crosses a real
/// socket pair, delayed by the link's ``LinkConditions`` and cut by its ``LinkMode``. Because it
/// works on bytes, it holds back WebSocket pings too, so a blackhole is noticed only by the
/// server's heartbeat, as on a real network, and any client (the official ones included) can be
/// put behind it.
public final class LinkProxy: Sendable {
    /// Where the link leads.
    public let upstreamHost: String
    /// The server's port.
    public let upstreamPort: Int
    private let group: any EventLoopGroup
    private let seed: UInt64
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var stats: LinkStats
        var listener: (any Channel)?
        var pipes: [Int: NIOLoopBound<LinkPipe>] = [:]
        var nextPipeID = 0
        var stopped = false
    }

    /// Makes a link to `upstreamHost:upstreamPort`; ``start(host:port:)`` opens it.
    ///
    /// - Parameters:
    ///   - conditions: Delay, jitter and bandwidth while the link is up.
    ///   - mode: Whether it starts up, in a blackhole or offline.
    ///   - seed: Seeds the jitter, so that a run can be repeated.
    public init(
        upstreamHost: String = "127.0.0.1", upstreamPort: Int, conditions: LinkConditions = .perfect,
        mode: LinkMode = .up, seed: UInt64 = 0, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "presencetop.link")
    ) throws(LinkError) {
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.group = group
        self.seed = seed
        self.logger = logger
        state = Mutex(State(stats: LinkStats(mode: mode, conditions: try conditions.validated())))
    }

    /// Opens the link's port (0: the system picks one) and returns it.
    @discardableResult
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws -> Int {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try accept(channel) }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            throw LinkError.cannotListen("\(host):\(port): \(error)")
        }
        state.withLock { $0.listener = listener }
        guard let bound = listener.localAddress?.port else { throw LinkError.cannotListen("no local port") }
        logger.debug("link \(host):\(bound) → \(upstreamHost):\(upstreamPort) open")
        return bound
    }

    /// The link's port, once started.
    public var port: Int? { state.withLock { $0.listener?.localAddress?.port } }

    /// What the link has carried and holds now.
    public var stats: LinkStats { state.withLock { $0.stats } }

    /// Signalled after every change to ``stats``: what a test or a tool waits on.
    public let changes = ChangeSignal()

    /// The link's mode.
    public var mode: LinkMode {
        get { state.withLock { $0.stats.mode } }
        set { change { $0.mode = newValue } }
    }

    /// The link's conditions; invalid ones are refused (see ``setConditions(_:)``).
    public var conditions: LinkConditions { state.withLock { $0.stats.conditions } }

    /// Changes the conditions for everything sent from now on.
    public func setConditions(_ conditions: LinkConditions) throws(LinkError) {
        let valid = try conditions.validated()
        change { $0.conditions = valid }
    }

    /// Closes the port and every connection through it.
    public func stop() async {
        let (listener, pipes) = state.withLock { state in
            state.stopped = true
            return (state.listener, Array(state.pipes.values))
        }
        try? await listener?.close()
        for pipe in pipes { try? await pipe.eventLoop.submit { pipe.value.finish() }.get() }
    }

    // MARK: - Internals the pipes use

    private func change(_ body: (inout LinkStats) -> Void) {
        let pipes = state.withLock { state in
            body(&state.stats)
            return Array(state.pipes.values)
        }
        changes.signal()
        for pipe in pipes {
            pipe.eventLoop.execute { pipe.value.followLink() }
        }
    }

    private func accept(_ channel: any Channel) throws {
        // The pipe is made and registered under the lock that reads the mode: a change made
        // meanwhile then either came before (and is the mode it starts with) or reaches it.
        let bound = state.withLock { state -> NIOLoopBound<LinkPipe>? in
            state.stats.acceptedConnections += 1
            guard !state.stopped, state.stats.mode != .offline else {
                state.stats.refusedConnections += 1
                return nil
            }
            state.nextPipeID += 1
            state.stats.openConnections += 1
            let id = state.nextPipeID
            let pipe = LinkPipe(
                id: id, client: channel, link: self, mode: state.stats.mode, conditions: state.stats.conditions,
                seed: seed &+ UInt64(id) &* 0x9e37_79b9_7f4a_7c15)
            let bound = NIOLoopBound(pipe, eventLoop: channel.eventLoop)
            state.pipes[id] = bound
            return bound
        }
        changes.signal()
        guard let pipe = bound?.value else {
            channel.close(promise: nil)
            return
        }
        try channel.pipeline.syncOperations.addHandler(RelayHandler(pipe: pipe, side: .client))
        pipe.connectIfNeeded()
    }

    func connectUpstream(for pipe: LinkPipe) {
        let bound = NIOLoopBound(pipe, eventLoop: pipe.eventLoop)
        ClientBootstrap(group: pipe.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(pipe: bound.value, side: .server))
                }
            }
            .connect(host: upstreamHost, port: upstreamPort)
            .whenComplete { [logger, self] result in
                switch result {
                case .success:
                    record { $0.upstreamFailure = nil }
                case .failure(let error):
                    logger.debug("link: the server cannot be reached: \(error)")
                    record { $0.upstreamFailure = LinkProxy.errorNumber(of: error) }
                    bound.value.connectFailed()
                }
            }
    }

    /// The system error number inside a connect failure, or 0.
    static func errorNumber(of error: any Error) -> Int32 {
        if let error = error as? IOError { return error.errnoCode }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return errorNumber(of: first.error)
        }
        return 0
    }

    func record(_ body: (inout LinkStats) -> Void) {
        state.withLock { body(&$0.stats) }
        changes.signal()
    }

    func unregister(_ pipe: LinkPipe) { _ = state.withLock { $0.pipes.removeValue(forKey: pipe.id) } }
}
