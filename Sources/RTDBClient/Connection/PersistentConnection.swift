import DequeModule
import Dispatch
import Foundation
import RTDBCore
import RTDBWire
import Synchronization

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
    struct Listen {
        var query: QuerySpec
        var tag: Int?
        var hash: () -> String
        var onComplete: (WireStatus, JSONValue) -> Void
    }

    struct QueuedRequest {
        var request: ClientRequest
        var onComplete: ((WireStatus, JSONValue) -> Void)?
    }

    let engineQueue: DispatchQueue
    let baseURL: String
    /// `ws` or `wss`, from the URL.
    let scheme: String
    /// The URL's own `host[:port]`.
    let configuredHost: String
    /// Where connections go (the SDKs' `internalHost`).
    ///
    /// The host the server's handshake or reset named, else the URL's: a database Firebase serves
    /// from a shard, or has moved, is reached there; a cached host that fails gives way to the
    /// URL's again.
    private(set) var internalHost: String
    let namespace: String
    let transport: any Transport
    let clock: WallClock
    /// What the connect timeout, the back-off and the keepalive sleep on.
    let timers: any Clock<Duration>
    /// Both, as they were handed in.
    let time: TimeSource
    let retryPolicy: RetryPolicy
    /// Where the back-off's jitter comes from in a confined engine (else the system's).
    var random: SeededRandom?
    weak var delegate: (any PersistentConnectionDelegate)?

    var connection: (any TransportConnection)?
    var generation = 0
    private var assembler = FrameAssembler(maxMessageBytes: 512 << 20, countsEntries: true)
    var isReady = false
    private(set) var interrupted = true
    /// Set by `shutDown()`: the instance was closed and never connects again.
    private var isShutDown = false
    private var failures = 0
    private var connectStartedAt = UnixTime.epoch
    /// The current transport connection's events on their way here (it timed the hello).
    private var inbox: TransportInbox?
    private var lastSessionID: String?
    var requestNumber = 0
    /// Frames held by ``sendingTogether(_:)`` to go out as one transport write.
    var gathered: [String]?
    var callbacks: [Int: (WireStatus, JSONValue) -> Void] = [:]
    var listens: [CodeUnitString: Listen] = [:]
    /// Writes not yet acknowledged, in order (answers come in order: acks leave from the front).
    var outstandingPuts = Deque<OutstandingPut>()
    var nextPutID = 0
    var offlineQueue: [QueuedRequest] = []
    /// Reads once waiting for a connection, by number, until answered or given up.
    var waitingGets: [Int: (WireStatus, JSONValue) -> Void] = [:]
    var nextGetID = 0
    /// onDisconnect operations and reads sent but not yet answered, by request number.
    var retained: [Int: QueuedRequest] = [:]
    /// onDisconnect operations held while writes are paused (they are writes too: made signed
    /// out, the rules would refuse them, and the entry they protect would become a ghost).
    var heldOnDisconnects: [QueuedRequest] = []
    var authCredential: DatabaseToken?
    /// Where credentials come from, if the app set a provider (``PersistentConnection+Tokens``).
    var tokenProvider: (any DatabaseTokenProvider)?
    /// Whether the provider's last credential was refused or expired: the next must be new.
    var tokenRefused = false
    /// Credentials refused in a row since one was accepted (a provider that keeps handing out
    /// refused tokens is not asked again until the next connection).
    var refusedInARow = 0
    /// Counts the provider's credentials asked for, so that a late answer to an earlier request
    /// is not taken.
    var tokenRequest = 0
    /// When the credential expires (server time), if it says.
    var authExpiresAt: UnixTime?
    /// Whether a new credential was sent on this connection and its answer has not come: writes
    /// wait for it, or they would be judged under a credential the server may refuse.
    var awaitingAuthAnswer = false
    /// Why writes are held back (an expired or refused credential), if they are.
    var writesPausedReason: String? {
        didSet { if writesPausedReason != oldValue { delegate?.connectionWritesPaused(writesPausedReason) } }
    }
    private var lastActivity = UnixTime.epoch {
        didSet { lastHeard.store(lastActivity.millisecondsSince1970, ordering: .relaxed) }
    }
    /// ``lastActivity`` for readers on other threads (the status snapshot reads it; publishing
    /// every frame to observers would cost more than it tells), ms since the epoch.
    let lastHeard = Atomic<Int64>(0)
    /// A fragmented message's progress for readers on other threads, as ``lastHeard``: bytes and
    /// the data's entries so far packed as `bytes << 32 | entries`, and fragments so far and
    /// announced packed as `so far << 32 | announced` (0: none).
    let arrivingBytes = Atomic<Int>(0)
    let arrivingFragments = Atomic<Int>(0)
    var pingSentAt: UnixTime?
    var skewSamples: [(offset: Duration, roundTrip: Duration)] = []
    var status = ConnectionStatus(phase: .offline)
    /// Notices steps of the wall clock (``noticeClockJumps()``).
    var clockJumps: ClockJumpDetector

    init(
        engineQueue: DispatchQueue, baseURL: String, namespace: String, transport: any Transport,
        time: TimeSource = .system, retryPolicy: RetryPolicy = RetryPolicy(),
        random: SeededRandom? = nil
    ) {
        self.engineQueue = engineQueue
        self.random = random
        self.baseURL = baseURL
        let parts = baseURL.components(separatedBy: "://")
        scheme = parts.count == 2 ? parts[0] : "ws"
        configuredHost = parts.count == 2 ? parts[1] : baseURL
        internalHost = configuredHost
        self.namespace = namespace
        self.transport = transport
        self.clock = time.wall
        self.timers = time.clock
        self.time = time
        self.retryPolicy = retryPolicy
        self.clockJumps = ClockJumpDetector(time)
    }

    /// Runs `work` on the queue once `milliseconds` have passed on ``timers``.
    ///
    /// The deadline is fixed now (a ``TimerDeadline``). Timers are not cancelled: each checks the
    /// connection's generation when it fires, so one left from an earlier attempt does nothing.
    func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (deadline, engineQueue) = (TimerDeadline(after: delay, on: timers), engineQueue)
        Task {
            try? await deadline.wait()
            engineQueue.async(execute: work)
        }
    }

    // MARK: - Lifecycle

    /// Connects (and keeps reconnecting) until `interrupt()`.
    func resume() {
        guard interrupted, !isShutDown else { return }
        interrupted = false
        failures = 0
        establishConnection()
    }

    /// Connects at once if waiting out the back-off before a retry (the attempt counts on).
    func reconnectNow() {
        guard !interrupted, !isShutDown, connection == nil, case .waitingToRetry = status.phase else { return }
        establishConnection()
    }

    /// Disconnects and stops reconnecting (`goOffline()`).
    func interrupt() {
        interrupted = true
        generation += 1
        connection?.close()
        connection = nil
        if isReady { handleDisconnect(reason: "goOffline") }
        setPhase(.offline)
    }

    /// Disconnects for good (`Database.close()`) and lets go of every request and its callback:
    /// they hold the repo, which would otherwise never be freed.
    func shutDown() {
        isShutDown = true
        interrupt()
        listens = [:]
        outstandingPuts = []
        offlineQueue = []
        retained = [:]
        heldOnDisconnects = []
        callbacks = [:]
    }

    /// Gives up an attempt under way (not yet connected) and starts another at once.
    func restartAttempt() {
        guard !interrupted, !isShutDown, !isReady else { return }
        generation += 1
        connection?.close()
        connection = nil
        establishConnection()
    }

    private func establishConnection() {
        guard !interrupted, connection == nil else { return }
        generation += 1
        let current = generation
        setPhase(.connecting(attempt: failures + 1))
        // A provider's credential comes first, as FirebaseDatabase asks Auth for a token before
        // it opens the socket: the listens restored at the handshake are then made signed in.
        if tokenProvider != nil {
            obtainToken(forcing: tokenRefused) { [weak self] result in
                guard let self, self.generation == current, !self.interrupted, self.connection == nil else { return }
                switch result {
                case .success(let token):
                    self.tokenRefused = false
                    self.setAuth(token)
                    self.openTransport(generation: current)
                case .failure(let error):
                    self.scheduleReconnect(reason: "could not get a credential: \(error)")
                }
            }
        } else {
            openTransport(generation: current)
        }
    }

    private func openTransport(generation current: Int) {
        assembler = FrameAssembler(maxMessageBytes: 512 << 20, countsEntries: true)
        // A message cut off with the last connection is not arriving any more.
        arrivingBytes.store(0, ordering: .relaxed)
        arrivingFragments.store(0, ordering: .relaxed)
        connectStartedAt = clock()
        let timeout = retryPolicy.connectTimeout
        after(timeout) { [weak self] in
            guard let self, self.generation == current, !self.isReady, self.connection != nil else { return }
            // No hello in time: this attempt is given up (its late events are ignored) and retried.
            self.generation += 1
            self.connection?.close()
            self.connection = nil
            self.forgetCachedHost()
            self.scheduleReconnect(reason: "no answer from the server within \(timeout.wholeMilliseconds) ms")
        }
        var url = "\(scheme)://\(internalHost)/.ws?v=5&ns=\(namespace)"
        if let lastSessionID { url += "&ls=\(lastSessionID)" }
        let engineQueue = engineQueue
        let inbox = TransportInbox(clock: clock)
        self.inbox = inbox
        connection = transport.connect(to: url) { [weak self] event in
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
            lastActivity = clock()
        case .frame(let text):
            lastActivity = clock()
            let message = (try? assembler.receive(text)) ?? nil
            let progress = assembler.progress
            arrivingBytes.store(progress.map { $0.bytes << 32 | min($0.entries, 0xFFFF_FFFF) } ?? 0, ordering: .relaxed)
            arrivingFragments.store(progress.map { $0.fragments << 32 | $0.of } ?? 0, ordering: .relaxed)
            guard let message else { return }
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
            arrivingBytes.store(0, ordering: .relaxed)
            arrivingFragments.store(0, ordering: .relaxed)
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
            setPhase(.waitingToRetry(attempt: failures, retryAt: nil, reason: "server shutdown: \(reason)"))
        case .control(.reset(let host)):
            if Self.isHost(host) { learnHost(host) }
            // The database is served elsewhere now: this connection ends and the next one goes
            // there at once, not after a back-off (its late events are ignored).
            generation += 1
            connection?.close()
            connection = nil
            if isReady { handleDisconnect(reason: "reset") }
            establishConnection()
        case .control:
            break
        case .response(let number, let status, let data):
            callbacks.removeValue(forKey: number)?(status, data)
        case .push(let push):
            if case .authRevoked(let status, let reason) = push, authCredential != nil {
                // The credential expired on the live connection: the server now treats it as signed
                // out, so writes wait for a new credential instead of being refused by the rules.
                writesPausedReason = "the server revoked the credential (\(status): \(reason)); set a new one"
                credentialSpent()
            }
            delegate?.connectionDidReceive(push)
        case .request:
            break
        }
    }

    private func handleHello(_ hello: Handshake) {
        // When the hello arrived, not when this queue came to it (a restart restores its queue
        // meanwhile): the round trip and the skew sample are the network's.
        let now = inbox?.firstFrameAt ?? clock()
        isReady = true
        if Self.isHost(hello.host) { learnHost(hello.host) }
        scheduleKeepalive(generation: generation)
        lastSessionID = hello.sessionID
        let serverTime = UnixTime(millisecondsSince1970: hello.timestamp)
        status.serverTimeOffset = serverTime - now
        status.connectedAt = now
        addSkewSample(serverTime: serverTime, sentAt: connectStartedAt, receivedAt: now)
        status.lastRoundTrip = now - connectStartedAt
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
        guard host != internalHost else { return }
        internalHost = host
        delegate?.connectionDidLearnHost(host == configuredHost ? nil : host)
    }

    /// Goes back to the URL's own host after a failed attempt on another one (a cached host that
    /// no longer answers).
    private func forgetCachedHost() {
        guard internalHost != configuredHost else { return }
        internalHost = configuredHost
        delegate?.connectionDidLearnHost(nil)
    }

    /// Uses `host` (saved by an earlier run) for the next connection.
    func useCachedHost(_ host: String) {
        guard Self.isHost(host), connection == nil || !isReady else { return }
        internalHost = host
    }

    /// Whether a server's `h` or reset names a host a URL can be made of: letters, digits, `.`,
    /// `-`, `:` and brackets (an IPv6 address), nothing that could change the URL's path.
    static func isHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || ".-:[]".unicodeScalars.contains(scalar))
            }
    }

    private func handleDisconnect(reason: String) {
        isReady = false
        callbacks = [:]
        // Requests lost with the connection go out again first, in the order they were made (the
        // SDKs drop them, so an onDisconnect made just before a drop would never be registered).
        offlineQueue = retained.sorted { $0.key < $1.key }.map(\.value) + heldOnDisconnects + offlineQueue
        retained = [:]
        heldOnDisconnects = []
        pingSentAt = nil
        // Writes that were sent stay queued and are sent again in order after reconnecting. A
        // transaction put without an idempotency key fails with "disconnect", as the SDKs do; with
        // one it is sent again: our server answers ok if it was applied, else judges its hash.
        var kept = Deque<OutstandingPut>()
        for var put in outstandingPuts {
            if put.sent, put.hash != nil, put.idempotencyKey == nil {
                put.onComplete(.disconnect, "the connection was lost while the transaction was in flight")
            } else {
                put.sent = false
                kept.append(put)
            }
        }
        outstandingPuts = kept
        if let connectedAt = status.connectedAt, clock() - connectedAt >= retryPolicy.resetAfter {
            failures = 0
        }
        status.connectedAt = nil
        delegate?.connectionDidDisconnect()
    }

    func scheduleReconnect(reason: String) {
        guard !interrupted else { return }
        failures += 1
        // Whole milliseconds, so that the wait is exactly the one `retryAt` shows.
        var draw = Double.random(in: 0..<1)
        if var seeded = random {
            draw = Double.random(in: 0..<1, using: &seeded)
            random = seeded
        }
        let delay = Duration.milliseconds(
            retryPolicy.delay(afterFailures: failures, random: draw).wholeMilliseconds)
        let retryAt = clock() + delay
        let current = generation
        after(delay) { [weak self] in
            guard let self, self.generation == current, !self.interrupted else { return }
            self.establishConnection()
        }
        setPhase(.waitingToRetry(attempt: failures + 1, retryAt: retryAt, reason: reason))
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
            if self.clock() - self.lastActivity >= WireFraming.keepaliveAfter {
                self.connection?.send(WireFraming.keepalive)
            }
            self.sendPing()
            self.scheduleKeepalive(generation: current)
        }
    }

    func sendPing() {
        guard isReady, pingSentAt == nil else { return }
        pingSentAt = clock()
        connection?.send(WireMessage.control(.ping).text)
    }

    private func handlePong(serverTime: Int64?) {
        guard let sentAt = pingSentAt else { return }
        pingSentAt = nil
        let now = clock()
        status.lastRoundTrip = now - sentAt
        if let serverTime {
            addSkewSample(serverTime: UnixTime(millisecondsSince1970: serverTime), sentAt: sentAt, receivedAt: now)
        }
        delegate?.connectionStatusDidChange(status)
    }

    /// Keeps the last 8 samples and uses the one with the shortest round trip (the tightest bound).
    ///
    /// A sample whose interval (offset ± half its round trip) does not overlap the current best's
    /// means a clock stepped (the user set it, or NTP did): the older samples describe a clock
    /// that no longer exists and are dropped.
    private func addSkewSample(serverTime: UnixTime, sentAt: UnixTime, receivedAt: UnixTime) {
        let roundTrip = receivedAt - sentAt
        let offset = (serverTime - sentAt) - roundTrip / 2
        if let best = skewSamples.min(by: { $0.roundTrip < $1.roundTrip }),
            max(best.offset - offset, offset - best.offset) > (best.roundTrip + roundTrip) / 2 + .milliseconds(1)
        {
            skewSamples.removeAll()
        }
        skewSamples.append((offset, roundTrip))
        if skewSamples.count > 8 { skewSamples.removeFirst() }
        guard let best = skewSamples.min(by: { $0.roundTrip < $1.roundTrip }) else { return }
        status.clockSkew = ClockSkewEstimate(
            offset: best.offset, errorBound: best.roundTrip / 2,
            samples: (status.clockSkew?.samples ?? 0) + 1)
    }
}
