import Foundation
import LinkSim
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// A real client and a real server on loopback, with the link's real sockets between them.
@Suite(.timeLimit(.minutes(10))) struct LinkProxyTests {
    /// A server, a link in front of it, and a client that reaches the server through the link.
    private struct Setup {
        let server: TestServer
        let link: LinkProxy
        let client: Database
        let connected = Recorder<Bool>()

        /// With `time`, the server's and the client's timers run on it (else on the real clock).
        static func make(
            time: TestTime? = nil, mode: LinkMode = .up, conditions: LinkConditions = .perfect
        ) async throws -> Setup {
            let source = time?.source ?? .system
            let server = try await TestServer.start(time: source)
            let link = try LinkProxy(upstreamPort: server.port, conditions: conditions, mode: mode, seed: 42)
            let port = try await link.start()
            // The transport's upgrade bound runs on the same time (else a loaded machine's real
            // seconds ended a blackholed attempt before the test moved time), and is longer than
            // the connect timeout, so that it is the connect timeout the tests see give up.
            let client = Database(
                url: "http://127.0.0.1:\(port)?ns=demo",
                transport: WebSocketTransport(upgradeTimeout: .seconds(60), time: source), time: source)
            let setup = Setup(server: server, link: link, client: client)
            setup.client.reference(withPath: ".info/connected").observe(.value) { [connected = setup.connected] in
                connected.record($0.value as? Bool ?? false)
            }
            return setup
        }

        /// What the server holds at `path`, asked directly (not through the link).
        func serverValue(_ path: String) async throws -> JSONValue? {
            try await http("GET", "/\(path).json", port: server.port).json
        }

        func stop() async {
            client.close()
            await link.stop()
            await server.stop()
        }
    }

    @Test func aClientBehindTheLinkWorksAndTheLinkCountsWhatItCarries() async throws {
        let setup = try await Setup.make()
        try await setup.client.reference(withPath: "notes/a").setValue("through the link")
        #expect(try await setup.serverValue("notes/a") == "through the link")
        let stats = setup.link.stats
        #expect(stats.openConnections == 1 && stats.acceptedConnections == 1)
        #expect(stats.bytesUp > 0 && stats.bytesDown > 0)
        #expect(stats.mode == .up && stats.refusedConnections == 0)
        await setup.stop()
        #expect(setup.link.stats.openConnections == 0)
    }

    @Test func offlineResetsTheConnectionAtOnceAndRefusesNewOnesUntilItIsBack() async throws {
        let setup = try await Setup.make()
        let status = setup.client.reference(withPath: "status/morgan")
        status.onDisconnectSetValue("offline")  // registered before the set below is acknowledged
        try await status.setValue("online")

        setup.link.mode = .offline
        #expect(await setup.connected.wait { $0.last == false }, "the client knows at once")
        #expect(
            try await until(setup.server.server.metrics.changes) {
                try await setup.serverValue("status/morgan") == "offline"
            }, "so does the server")
        setup.client.reference(withPath: "notes/queued").setValue("written while offline", andPriority: nil)
        #expect(
            try await until(setup.link.changes) { setup.link.stats.refusedConnections > 0 },
            "the client's retries are refused")
        #expect(setup.client.pendingWrites.count == 1)

        setup.link.mode = .up
        #expect(await setup.connected.wait { $0.last == true })
        await setup.client.waitForPendingWrites()
        #expect(try await setup.serverValue("notes/queued") == "written while offline")
        await setup.stop()
    }

    @Test func aBlackholeIsNoticedOnlyByTheServersHeartbeatAndHeldWritesArriveAfterIt() async throws {
        // Server and client on one time the test moves: no heartbeat fires on its own, so a busy
        // machine cannot end the session early, and none is waited for.
        let time = TestTime()
        let setup = try await Setup.make(time: time)
        let status = setup.client.reference(withPath: "status/morgan")
        status.onDisconnectSetValue("offline")  // registered before the set below is acknowledged
        try await status.setValue("online")
        let session = try #require(setup.server.server.connections.connections.first?.sessionID)

        let heardBefore = setup.connected.all.count
        setup.link.mode = .blackhole
        setup.client.reference(withPath: "notes/held").setValue("written into the blackhole", andPriority: nil)
        #expect(try await until(setup.link.changes) { setup.link.stats.bytesHeld > 0 }, "the write waits in the link")
        // The server pings at 7.5 s; nothing comes back through the link, not even the pong. Each
        // move waits until the server has judged that tick (a barrier: a tick judged after a later
        // move would count as late and only ping again).
        let server = setup.server.server
        await time.advance(by: .milliseconds(7_501))
        #expect(try await until(server.metrics.changes) { server.heartbeatTicksJudged >= 1 })
        #expect(server.connections[session] != nil, "one silent tick is not enough")
        // At the next tick (15 s) the session ends as if it had closed, and its onDisconnect runs.
        // (Bytes sent just before the blackhole may be read after the first tick on a loaded
        // machine; they count as hearing, and the tick after that ends it.)
        // A tick that judged the session silent closes it (it is the server's only session):
        // then its end is awaited.
        for tick in 2...3 where server.connections[session] != nil {
            let silent = server.heartbeatSessionsJudgedSilent
            await time.advance(by: .milliseconds(7_500))
            #expect(try await until(server.metrics.changes) { server.heartbeatTicksJudged >= tick })
            if server.heartbeatSessionsJudgedSilent > silent {
                _ = try await until(server.connections.changes) { server.connections[session] == nil }
            }
        }
        #expect(server.connections[session] == nil, "ended by the second or third silent tick")
        #expect(
            try await until(setup.server.server.metrics.changes) {
                try await setup.serverValue("status/morgan") == "offline"
            })
        #expect(!setup.connected.all.dropFirst(heardBefore).contains(false), "the client has heard nothing of it")
        #expect(try await setup.serverValue("notes/held") == .null)

        // The network returns: the client learns its connection is gone, waits its back-off (at
        // most 1 s after one failure) and sends the held write on a new connection.
        setup.link.mode = .up
        #expect(await setup.connected.wait { $0.last == false })
        #expect(try await until(setup.client.changes) { setup.client.connectionStatus.phase.isWaitingToRetry })
        await time.advance(by: .milliseconds(1_001))
        await setup.client.waitForPendingWrites()
        #expect(try await setup.serverValue("notes/held") == "written into the blackhole")
        #expect(
            try await until(setup.client.changes, setup.link.changes) {
                setup.connected.last == true && setup.link.stats.openConnections == 1
            })
        await setup.stop()
    }

    @Test func latencyDelaysEveryTripAndJitterKeepsTheOrder() async throws {
        let setup = try await Setup.make(
            conditions: LinkConditions(latency: .milliseconds(100), jitter: .milliseconds(50)))
        // The WebSocket upgrade goes up and its answer comes down: at least two latencies. (A lower
        // bound only; a busy machine makes it longer, never shorter.)
        let started = ContinuousClock.now
        #expect(await setup.connected.wait { $0.last == true })
        #expect(ContinuousClock.now - started >= .milliseconds(200))

        // Many writes in flight through a jittery link still arrive whole and in order.
        let list = setup.client.reference(withPath: "sequence")
        for index in 0..<100 { list.child(String(format: "%03d", index)).setValue(index, andPriority: nil) }
        list.child("last").setValue(99, andPriority: nil)
        await setup.client.waitForPendingWrites()
        let stored = try #require(try await setup.serverValue("sequence"))
        #expect(stored["last"] == 99)
        #expect((0..<100).allSatisfy { stored[String(format: "%03d", $0)]?.intValue == Int64($0) })

        try setup.link.setConditions(.perfect)
        #expect(setup.link.conditions == .perfect)
        #expect(throws: LinkError.invalidConditions("jitter -1 ms is negative")) {
            try setup.link.setConditions(LinkConditions(jitter: .milliseconds(-1)))
        }
        #expect(setup.link.conditions == .perfect, "a refused change leaves the link as it was")
        await setup.stop()
    }

    @Test func aConnectAttemptSwallowedByABlackholeIsGivenUpAndRetried() async throws {
        // A client that starts behind a dead network: its attempt is accepted by the network and
        // never answered. After the connect timeout (30 s) it gives up and, after its back-off,
        // tries again; once the network is back, that attempt connects.
        let time = TestTime()
        let setup = try await Setup.make(time: time, mode: .blackhole)
        let (link, client) = (setup.link, setup.client)
        #expect(try await until(link.changes) { link.stats.acceptedConnections == 1 })
        await time.advance(by: .milliseconds(29_999))
        #expect(client.connectionStatus.phase.isConnecting, "still waiting just before the timeout")
        await time.advance(by: .milliseconds(2))
        #expect(
            try await until(client.changes) {
                if case .waitingToRetry(_, _, let reason) = client.connectionStatus.phase {
                    return reason.contains("no answer from the server within 30000 ms")
                }
                return false
            })
        #expect(link.stats.acceptedConnections == 1, "no new attempt before the back-off is over")
        link.mode = .up
        await time.advance(by: .milliseconds(1_001))
        #expect(try await until(link.changes) { link.stats.acceptedConnections == 2 }, "it tried again")
        #expect(try await until(client.changes) { client.connectionStatus.phase.isConnected })
        await setup.stop()
    }

    @Test func refusedAttemptsBackOffAsTheSDKsDo() async throws {
        // Every attempt is refused at once; each wait is drawn from the policy (1 s, ×1.3 per
        // failure, up to 30 s, 30–100 % of it) and the next attempt comes only when it is over.
        let time = TestTime()
        let setup = try await Setup.make(time: time, mode: .offline)
        let (link, client) = (setup.link, setup.client)
        /// When attempt `attempt` is due, once the client waits for it.
        func retryAt(attempt: Int) async throws -> UnixTime? {
            var due: UnixTime?
            _ = try await until(client.changes) {
                guard case .waitingToRetry(attempt, let at, _) = client.connectionStatus.phase else { return false }
                due = at
                return true
            }
            return due
        }
        var ceiling = 1_000.0
        for failures in 1...12 {
            let due = try #require(try await retryAt(attempt: failures + 1), "waiting after failure \(failures)")
            #expect(link.stats.refusedConnections == failures)
            let wait = due - time.now
            #expect(
                wait.inMilliseconds >= 0.3 * ceiling - 1 && wait.inMilliseconds <= ceiling,
                "failure \(failures): \(wait)")
            await time.advance(by: wait - .milliseconds(1))
            #expect(link.stats.refusedConnections == failures, "not before its time")
            await time.advance(by: .milliseconds(2))
            ceiling = min(30_000, ceiling * 1.3)
        }
        let last = try #require(try await retryAt(attempt: 14))
        link.mode = .up
        // Just past the attempt's time: a jump past it too would also fire the new attempt's own
        // bounds (its upgrade's) before a loaded machine has carried it through.
        await time.advance(by: last - time.now + .milliseconds(1))
        #expect(try await until(client.changes) { client.connectionStatus.phase.isConnected })
        await setup.stop()
    }

    @Test func anUpgradeNobodyAnswersIsReportedClosedAtItsBound() async throws {
        // The network accepts the connection and swallows the upgrade request: without a bound
        // the client library would wait for its answer for ever.
        let time = TestTime()
        let server = try await TestServer.start(time: time.source)
        let link = try LinkProxy(upstreamPort: server.port, mode: .blackhole)
        let port = try await link.start()
        let transport = WebSocketTransport(upgradeTimeout: .seconds(10), time: time.source)
        let events = Recorder<String>()
        let connection = transport.connect(to: "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo") { event in
            switch event {
            case .opened: events.record("opened")
            case .frame: events.record("frame")
            case .closed(let reason): events.record("closed: \(reason ?? "")")
            }
        }
        #expect(try await until(link.changes) { link.stats.acceptedConnections == 1 && link.stats.bytesHeld > 0 })
        await time.advance(by: .milliseconds(9_999))
        #expect(events.all.isEmpty, "nothing before the bound")
        await time.advance(by: .milliseconds(2))
        let bound = "closed: the WebSocket upgrade did not complete within 10.0 seconds"
        #expect(await events.wait { $0 == [bound] })

        // The network returns and the late upgrade completes: that connection is closed at once,
        // it reports nothing more, and the server keeps no session for it.
        link.mode = .up
        #expect(try await until(link.changes) { link.stats.openConnections == 0 })
        #expect(try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty })
        #expect(events.all.count == 1)
        connection.close()
        await link.stop()
        await server.stop()
    }

    @Test func aServerThatCannotBeReachedFailsTheClientsConnection() async throws {
        // A port that is bound but not listening: connecting is refused, and no other test's
        // server can take the port meanwhile.
        let socket = try ClosedPort()
        defer { socket.release() }
        let link = try LinkProxy(upstreamPort: socket.port)
        let raw = try await RawTCPClient(port: try await link.start())
        await raw.waitUntilClosed()
        #expect(try await until(link.changes) { link.stats.openConnections == 0 })
        await raw.close()
        await link.stop()
    }
}

/// A loopback port held by a socket that never listens.
private struct ClosedPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw TestFailure("cannot bind a loopback port") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { close(descriptor) }
}

extension ConnectionPhase {
    fileprivate var isConnecting: Bool {
        if case .connecting = self { return true }
        return false
    }

    fileprivate var isWaitingToRetry: Bool {
        if case .waitingToRetry = self { return true }
        return false
    }
}
