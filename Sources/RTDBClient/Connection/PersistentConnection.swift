import Dispatch
import Foundation
import RTDBCore
import RTDBWire

/// What the connection tells the repo, always on the repo's queue.
protocol PersistentConnectionDelegate: AnyObject {
    func connectionDidConnect(sessionID: String, serverTimeOffset: Duration)
    func connectionDidDisconnect()
    func connectionDidReceive(_ push: ServerPush)
    func connectionStatusDidChange(_ status: ConnectionStatus)
    func connectionServerTimeOffsetDidChange(_ offset: Duration)
    func connectionWritesPaused(_ reason: String?)
    /// The server named the host later connections go to (nil: back to the URL's own host).
    func connectionDidLearnHost(_ host: String?)
}

/// The protocol v5 client connection (docs/wire-protocol.md#reconnecting): handshake, requests and
/// responses, restoring auth, listens, unacknowledged writes and onDisconnect operations on every
/// reconnect, back-off, keepalive, and clock-skew sampling.
///
/// `@unchecked Sendable` is safe because every method and property is used only on `queue`, a
/// serial queue: transport events and timers hop onto it before touching state (the same
/// confinement the Apple SDK uses for its connection).
final class PersistentConnection: @unchecked Sendable {
    typealias Listen = RequestQueues.Listen
    typealias QueuedRequest = RequestQueues.QueuedRequest

    let engineQueue: DispatchQueue
    /// Where and as what the next connection goes.
    private(set) var target: ConnectionTarget
    let transport: any Transport
    /// The wall clock, and what the connect timeout, the back-off and the keepalive sleep on.
    let time: TimeSource
    weak var delegate: (any PersistentConnectionDelegate)?
    /// The wait before the next attempt.
    private var backoff: Backoff
    /// Whether it is wanted online, the current attempt, and whether it is ready.
    var lifecycle = ConnectionLifecycle()
    var connection: (any TransportConnection)?
    /// What arrives on the current transport connection.
    private var arrivals = Arrivals()
    /// The live connection's request numbers and the callbacks waiting for responses.
    var outbox = RequestOutbox()
    /// What is owed to the server across losses: listens, writes, queued requests.
    var requests = RequestQueues()
    /// The credential, its provider, and whether writes wait for one.
    let auth = ConnectionAuth()
    /// The round trip and the server's clock, as measured.
    var serverClock: ServerClockSampler
    /// What observers see (`.info/connected`, the offset, the skew, the phase).
    var status = ConnectionStatus(phase: .offline)

    /// The wall clock.
    var clock: WallClock { time.wall }
    /// The delays, the connect timeout and the keepalive interval.
    var retryPolicy: RetryPolicy { backoff.policy }
    /// Whether the current attempt's handshake arrived.
    var isReady: Bool { lifecycle.isReady }
    /// The current attempt's number.
    var generation: Int { lifecycle.generation }
    /// The URL's own `host[:port]` (the repo keeps a learned host under it).
    var configuredHost: String { target.configuredHost }
    /// The gauges of what arrives, for readers on other threads.
    var gauges: ArrivalGauges { arrivals.gauges }

    init(
        engineQueue: DispatchQueue, baseURL: String, namespace: String, transport: any Transport,
        time: TimeSource = .system, retryPolicy: RetryPolicy = RetryPolicy(),
        random: SeededRandom? = nil
    ) {
        self.engineQueue = engineQueue
        self.target = ConnectionTarget(baseURL: baseURL, namespace: namespace)
        self.transport = transport
        self.time = time
        self.backoff = Backoff(policy: retryPolicy, random: random)
        self.serverClock = ServerClockSampler(time)
        auth.connection = self
    }

    /// Runs `work` on the queue once `delay` has passed on ``time``'s clock.
    ///
    /// The deadline is fixed now (a ``TimerDeadline``). Timers are not cancelled: each checks the
    /// connection's generation when it fires, so one left from an earlier attempt does nothing.
    func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (deadline, engineQueue) = (TimerDeadline(after: delay, on: time.clock), engineQueue)
        Task {
            try? await deadline.wait()
            engineQueue.async(execute: work)
        }
    }

    // MARK: - Lifecycle

    /// Connects (and keeps reconnecting) until `interrupt()`.
    func resume() {
        guard lifecycle.intent == .offline else { return }
        lifecycle.intent = .online
        backoff.reset()
        establishConnection()
    }

    /// Connects at once if waiting out the back-off before a retry (the attempt counts on).
    func reconnectNow() {
        guard lifecycle.intent == .online, connection == nil, case .waitingToRetry = status.phase else { return }
        establishConnection()
    }

    /// Disconnects and stops reconnecting (`goOffline()`).
    func interrupt() {
        if lifecycle.intent == .online { lifecycle.intent = .offline }
        lifecycle.advance()
        connection?.close()
        connection = nil
        if isReady { handleDisconnect(reason: "goOffline") }
        setPhase(.offline)
    }

    /// Disconnects for good (`Database.close()`) and lets go of every request and its callback:
    /// they hold the repo, which would otherwise never be freed.
    func shutDown() {
        lifecycle.intent = .shutDown
        interrupt()
        requests.release()
        outbox.forgetCallbacks()
    }

    /// Gives up an attempt under way (not yet connected) and starts another at once.
    func restartAttempt() {
        guard lifecycle.intent == .online, !isReady else { return }
        lifecycle.advance()
        connection?.close()
        connection = nil
        establishConnection()
    }

    private func establishConnection() {
        guard !lifecycle.isInterrupted, connection == nil else { return }
        let current = lifecycle.advance()
        setPhase(.connecting(attempt: backoff.nextAttempt))
        auth.prepare(attempt: current) { [weak self] in self?.openTransport(generation: current) }
    }

    /// Whether attempt `generation` is still the current one, and ready (a timer set during it
    /// acts only then).
    func isReady(in generation: Int) -> Bool { generation == lifecycle.generation && lifecycle.isReady }

    /// Whether attempt `generation` is the current one, wanted, and has no transport yet.
    func isAttemptUnderWay(_ generation: Int) -> Bool {
        generation == lifecycle.generation && !lifecycle.isInterrupted && connection == nil
    }

    private func openTransport(generation current: Int) {
        serverClock.attemptStartedAt = clock()
        let timeout = retryPolicy.connectTimeout
        after(timeout) { [weak self] in
            guard let self, self.generation == current, !self.isReady, self.connection != nil else { return }
            // No hello in time: this attempt is given up (its late events are ignored) and retried.
            self.lifecycle.advance()
            self.connection?.close()
            self.connection = nil
            self.forgetCachedHost()
            self.scheduleReconnect(reason: "no answer from the server within \(timeout.wholeMilliseconds) ms")
        }
        let engineQueue = engineQueue
        let inbox = TransportInbox(clock: clock)
        arrivals.start(inbox)
        connection = transport.connect(to: target.url) { [weak self] event in
            guard let connection = self, inbox.put(event) else { return }
            engineQueue.async {
                for event in inbox.take() { connection.handle(event, generation: current) }
            }
        }
    }

    private func handle(_ event: TransportEvent, generation eventGeneration: Int) {
        guard eventGeneration == generation else { return }
        switch event {
        case .opened:
            // The upgrade's answer: the server was heard. A close is not (it may be local).
            arrivals.lastActivity = clock()
        case .frame(let text):
            arrivals.lastActivity = clock()
            guard let message = arrivals.receive(text) else { return }
            if let number = WireMessage.acknowledgedNumber(inText: message) {
                return handle(.response(number: number, status: .ok, data: .string("")))
            }
            // A data push's data read straight into nodes (a first list of a million users is
            // one); anything else, or data the plain reading does not take, as usual.
            if let push = WireMessage.dataPush(inText: message) { return handle(.push(push)) }
            guard let parsed = try? WireMessage(text: message) else { return }
            handle(parsed)
        case .closed(let reason):
            connection = nil
            arrivals.closed()
            if isReady {
                handleDisconnect(reason: reason ?? "closed")
            } else {
                forgetCachedHost()
            }
            scheduleReconnect(reason: reason ?? "connection closed")
        }
    }

    /// Traps, in debug builds, when called off ``queue`` (the confinement behind this type's
    /// `@unchecked Sendable`), checked where every request and message passes.
    @inline(__always)
    func assertConfined() {
        #if DEBUG
            // A confinement queue runs one thing at a time: an engine's work inline there is
            // as confined as on its own queue.
            if !EngineConfinement.isOnConfinedQueue { dispatchPrecondition(condition: .onQueue(engineQueue)) }
        #endif
    }

    private func handle(_ message: WireMessage) {
        assertConfined()
        noticeClockJumps()
        switch message {
        case .control(.hello(let hello)):
            handleHello(hello)
        case .control(.pong(let serverTime)):
            handlePong(serverTime: serverTime)
        case .control(.shutdown(let reason)):
            interrupt()
            setPhase(.waitingToRetry(attempt: backoff.failures, retryAt: nil, reason: "server shutdown: \(reason)"))
        case .control(.reset(let host)):
            learnHost(host)
            // The database is served elsewhere now: this connection ends and the next one goes
            // there at once, not after a back-off (its late events are ignored).
            lifecycle.advance()
            connection?.close()
            connection = nil
            if isReady { handleDisconnect(reason: "reset") }
            establishConnection()
        case .control:
            break
        case .response(let number, let status, let data):
            outbox.callback(for: number)?(status, data)
        case .push(let push):
            if case .authRevoked(let status, let reason) = push { auth.revoked(status, reason: reason) }
            delegate?.connectionDidReceive(push)
        case .request:
            break
        }
    }

    private func handleHello(_ hello: Handshake) {
        // When the hello arrived, not when this queue came to it (a restart restores its queue
        // meanwhile): the round trip and the skew sample are the network's.
        let now = arrivals.inbox?.firstFrameAt ?? clock()
        lifecycle.isReady = true
        learnHost(hello.host)
        scheduleKeepalive(generation: generation)
        target.lastSessionID = hello.sessionID
        let serverTime = UnixTime(millisecondsSince1970: hello.timestamp)
        status.serverTimeOffset = serverTime - now
        status.connectedAt = now
        addSkewSample(serverTime: serverTime, sentAt: serverClock.attemptStartedAt, receivedAt: now)
        status.lastRoundTrip = now - serverClock.attemptStartedAt
        setPhase(.connected(sessionID: hello.sessionID))
        // Auth, listens and onDisconnect operations go out before the delegate hands over writes
        // restored from disk: sent first, they reached the server signed out, and the rules
        // refused a whole queue that survived a restart.
        restoreState()
        delegate?.connectionDidConnect(sessionID: hello.sessionID, serverTimeOffset: serverTime - now)
        sendPing()
    }

    /// Takes `host` for the next connections, and tells the repo (which keeps it on disk).
    private func learnHost(_ host: String) {
        guard target.learn(host) else { return }
        delegate?.connectionDidLearnHost(target.learnedHost)
    }

    /// Goes back to the URL's own host after a failed attempt on another one (a cached host that
    /// no longer answers).
    private func forgetCachedHost() {
        guard target.forgetLearnedHost() else { return }
        delegate?.connectionDidLearnHost(nil)
    }

    /// Uses `host` (saved by an earlier run) for the next connection.
    func useCachedHost(_ host: String) {
        guard connection == nil || !isReady else { return }
        _ = target.learn(host)
    }

    private func handleDisconnect(reason: String) {
        lifecycle.isReady = false
        outbox.forgetCallbacks()
        serverClock.pingSentAt = nil
        for put in requests.connectionLost() {
            put.onComplete(.disconnect, "the connection was lost while the transaction was in flight")
        }
        if let connectedAt = status.connectedAt, clock() - connectedAt >= retryPolicy.resetAfter {
            backoff.reset()
        }
        status.connectedAt = nil
        delegate?.connectionDidDisconnect()
    }

    func scheduleReconnect(reason: String) {
        guard !lifecycle.isInterrupted else { return }
        let delay = backoff.failed()
        let retryAt = clock() + delay
        let current = generation
        after(delay) { [weak self] in
            guard let self, self.generation == current, !self.lifecycle.isInterrupted else { return }
            self.establishConnection()
        }
        setPhase(.waitingToRetry(attempt: backoff.nextAttempt, retryAt: retryAt, reason: reason))
    }

    private func setPhase(_ phase: ConnectionPhase) {
        status.phase = phase
        delegate?.connectionStatusDidChange(status)
    }

    // MARK: - Keepalive and clock skew

    private func scheduleKeepalive(generation current: Int) {
        after(retryPolicy.pingInterval) { [weak self] in
            guard let self, self.generation == current, self.isReady else { return }
            self.noticeClockJumps()
            if self.clock() - self.arrivals.lastActivity >= WireFraming.keepaliveAfter {
                self.connection?.send(WireFraming.keepalive)
            }
            self.sendPing()
            self.scheduleKeepalive(generation: current)
        }
    }

    func sendPing() {
        guard isReady, serverClock.pingSentAt == nil else { return }
        serverClock.pingSentAt = clock()
        connection?.send(WireMessage.control(.ping).text)
    }

    private func handlePong(serverTime: Int64?) {
        guard let sentAt = serverClock.pingSentAt else { return }
        serverClock.pingSentAt = nil
        let now = clock()
        status.lastRoundTrip = now - sentAt
        if let serverTime {
            addSkewSample(serverTime: UnixTime(millisecondsSince1970: serverTime), sentAt: sentAt, receivedAt: now)
        }
        delegate?.connectionStatusDidChange(status)
    }

    /// Takes a sample of the server's clock into the estimate ``status`` shows.
    private func addSkewSample(serverTime: UnixTime, sentAt: UnixTime, receivedAt: UnixTime) {
        let best = serverClock.add(serverTime: serverTime, sentAt: sentAt, receivedAt: receivedAt)
        status.clockSkew = ClockSkewEstimate(
            offset: best.offset, errorBound: best.errorBound, samples: (status.clockSkew?.samples ?? 0) + 1)
    }
}
