import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

/// The simulation the dashboard and the demo stand on: a real embedded server, this device behind
/// its own link with a persistent queue, and a population.
@Suite struct SimulationTests {
    static func options(_ directory: URL) -> SimulationOptions {
        var options = SimulationOptions()
        options.users = 2
        options.devicesPerUser = 1
        options.conditions = .perfect
        options.heartbeatTimeout = .seconds(5)
        options.thisDevice = SimulationOptions.ThisDevice(persistenceDirectory: directory)
        return options
    }

    @Test func writesQueueOfflineAndDrainWithEventsAndSnapshots() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = Mutex<[WatchEvent.Kind]>([])
        let simulation = try await Simulation.start(Self.options(directory)) { event in
            events.withLock { $0.append(event.kind) }
        }
        #expect(
            try await until(simulation.changes) { simulation.snapshot().thisDevice?.status.phase.isConnected == true })
        #expect(try await until(simulation.changes) { simulation.isSettled }, "\(simulation.users)")
        let settled = simulation.snapshot()
        #expect(settled.users.map(\.id) == ["alex", "morgan"])
        #expect(settled.users.flatMap(\.connections).count == 3)
        #expect(settled.ownEntryKeys.count == 1)
        #expect(settled.server.hasPrefix("embedded 127.0.0.1:"))
        #expect(settled.heartbeatTimeout == .seconds(5))
        // The server's table knows every connection: each entry has a silence reading (once its
        // device is connected again, should a loaded machine have cost it its first session).
        #expect(
            try await eventually {
                let snapshot = simulation.snapshot()
                return Set(snapshot.silence.keys) == Set(snapshot.users.flatMap(\.connections).map(\.id))
            })

        simulation.toggleNetwork()
        #expect(
            try await until(simulation.changes) { simulation.snapshot().thisDevice?.status.phase.isConnected == false })
        #expect(
            try await until(simulation.changes) {
                simulation.snapshot().users.first { $0.id == "morgan" }?.connections.count == 1
            })
        simulation.queueWrites(3)
        // Only the notes: should a loaded machine have cost this device a session, its presence
        // writes from the reconnect may be waiting too.
        #expect(
            try await until(simulation.changes) {
                simulation.snapshot().thisDevice?.pendingWrites.filter { $0.path.hasPrefix("/notes/") }.count == 3
            })
        simulation.toggleNetwork()
        #expect(try await until(simulation.changes) { simulation.snapshot().thisDevice?.pendingWrites.isEmpty == true })
        let kinds = events.withLock { $0 }
        #expect(kinds.contains(.link(device: "morgan/this device", mode: .offline)))
        #expect(kinds.contains(.link(device: "morgan/this device", mode: .up)))
        #expect(kinds.contains(.queue(depth: 3)))
        let acknowledged = kinds.reduce(0) { total, kind in
            if case .acknowledged(let count) = kind { return total + count }
            return total
        }
        #expect(acknowledged >= 3)
        #expect(kinds.contains { if case .connection(.connected) = $0 { true } else { false } })
        #expect(
            kinds.contains { if case .presence(.deviceDisconnected(user: "morgan", _, _)) = $0 { true } else { false } }
        )
        await simulation.stop()
    }

    /// The server's heartbeat runs on the test's clock: a silent session is judged only when the
    /// test moves that clock, so the suspect window cannot close early on a loaded machine (with
    /// the heartbeat on the machine's clock, the session could end as soon as the silence made it
    /// suspect, and a clean-clone CI run missed the window).
    @Test func aBlackholeMakesThisDeviceSuspectOnTheServerBeforeItGoes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime()
        var options = Self.options(directory)
        options.users = 0
        options.serverTime = TimeSource(wall: { UnixTime.now() }, clock: time.timers)  // timers moved by hand
        // Suspect from 5 s of silence (the silence itself is read on the machine's clock).
        options.heartbeatTimeout = .seconds(10)
        let simulation = try await Simulation.start(options)
        let server = try #require(simulation.embedded?.server)
        #expect(try await until(simulation.changes) { simulation.snapshot().ownEntryKeys.count == 1 })
        let key = try #require(simulation.snapshot().ownEntryKeys.first)
        // Its entry is on the server (the watcher sees it), and it is heard from.
        #expect(
            try await eventually {
                let snapshot = simulation.snapshot()
                return snapshot.users.first { $0.id == "morgan" }?.connections.map(\.id) == [key]
                    && !snapshot.isSuspect(entryKey: key)
            })
        simulation.toggleBlackhole()
        // Still connected as far as the client knows, but the server stops hearing from it.
        let silences = Recorder<Duration?>()
        let suspect = try await eventually {
            let snapshot = simulation.snapshot()
            silences.record(snapshot.silence[key])
            return snapshot.isSuspect(entryKey: key)
        }
        #expect(suspect, "the server's silence for this device, last polls: \(silences.all.suffix(6))")
        #expect(simulation.snapshot().thisDevice?.status.phase.isConnected == true)
        #expect(simulation.snapshot().users.first { $0.id == "morgan" }?.connections.count == 1)
        // Half a timeout: the heartbeat pings every session, this device's into the blackhole.
        // The watcher (straight to the server) answers; once its pong is in, another half with
        // nothing heard from this device: the server ends its session, and its onDisconnect
        // removes the entry.
        guard case .connected(let watcherSession)? = simulation.snapshot().usersFeed.status?.phase else {
            Issue.record("the watcher is not connected")
            return
        }
        let pinged = UnixTime.now()
        await time.advance(by: options.heartbeatTimeout / 2 + .milliseconds(1))
        #expect(try await until(server.metrics.changes) { server.heartbeatTicksJudged >= 1 })
        #expect(
            try await until(server.connections.changes) {
                (server.connections[watcherSession]?.lastHeardAt ?? pinged) > pinged
            })
        await time.advance(by: options.heartbeatTimeout / 2)
        #expect(try await until(server.metrics.changes) { server.heartbeatTicksJudged >= 2 })
        #expect(try await until(simulation.changes) { simulation.snapshot().silence[key] == nil })
        #expect(
            try await until(simulation.changes) {
                simulation.snapshot().users.first { $0.id == "morgan" }?.connections.isEmpty == true
            },
            "\(simulation.snapshot().users)")
        simulation.toggleBlackhole()
        await simulation.stop()
    }

    /// Was: a server address where nothing listens read as "reset by peer" (what this device's
    /// link did to it), and the presence list stayed as if live.
    @Test func aServerThatIsNotThereReadsAsRefusedAndStale() async throws {
        let stopped = try await TestServer.start()
        let port = stopped.port
        await stopped.stop()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = Self.options(directory)
        options.users = 0
        options.server = .remote(ServerTarget(host: "127.0.0.1", port: port, namespace: "gone"))
        let simulation = try await Simulation.start(options)
        #expect(
            try await until(simulation.changes) {
                guard case .waitingToRetry(_, _, let reason)? = simulation.snapshot().thisDevice?.status.phase else {
                    return false
                }
                return reason.contains("the link cannot reach the server: connection refused")
            }, "\(String(describing: simulation.snapshot().thisDevice?.status.phase))")
        let snapshot = simulation.snapshot()
        #expect(snapshot.thisDevice?.status.lastHeardAt == nil, "never heard")
        let feed = try #require(snapshot.usersFeed.status)
        #expect(snapshot.staleSince(feed, now: snapshot.takenAt) == .some(nil), "stale, never heard")
        await simulation.stop()
    }

    /// Was: a run with more simulated users left them in the embedded server's data, shown as
    /// offline in every later run.
    @Test func aFreshPopulationLeavesNoEarlierUsersBehind() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = Self.options(directory.appendingPathComponent("state"))
        options.server = .embedded(dataDirectory: directory.appendingPathComponent("data"))
        options.users = 4
        let first = try await Simulation.start(options)
        // This device's user is the population's first.
        #expect(
            try await until(first.changes) { first.snapshot().users.count == 4 }, "\(first.snapshot().users.map(\.id))")
        await first.stop()
        options.users = 1
        options.freshPopulation = true
        let second = try await Simulation.start(options)
        #expect(
            try await until(second.changes) { second.snapshot().users.count == 1 },
            "\(second.snapshot().users.map(\.id))")
        #expect(second.snapshot().users.contains { $0.id == "morgan" })
        await second.stop()
        // Without it (as with --data), the users of earlier runs stay: 4 from a run, seen by one of 1.
        options.users = 4
        options.freshPopulation = false
        let third = try await Simulation.start(options)
        #expect(try await until(third.changes) { third.snapshot().users.count == 4 })
        await third.stop()
        options.users = 1
        let fourth = try await Simulation.start(options)
        #expect(
            try await until(fourth.changes) { fourth.snapshot().users.count == 4 },
            "\(fourth.snapshot().users.map(\.id))")
        await fourth.stop()
    }

    @Test func aStepInTheClockReachesTheEstimateWithoutWaitingOutOldSamples() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = Self.options(directory)
        options.users = 0
        let simulation = try await Simulation.start(options)
        #expect(
            try await until(simulation.changes) {
                (simulation.snapshot().thisDevice?.status.clockSkew?.samples ?? 0) >= 2
            })
        // Samples after the step come over a slow link, so the old ones have the better round trip
        // and would win the estimate until they age out (8 pings, 16 s) if a step did not drop them.
        simulation.toggleLatency()
        simulation.shiftClock(by: .seconds(5))
        #expect(
            try await eventually(attempts: 200) {
                guard let skew = simulation.snapshot().thisDevice?.status.clockSkew else { return false }
                return abs(skew.offset.inMilliseconds + 5_000) < 1_500
            })
        #expect(simulation.snapshot().thisDevice?.clockOffset == .seconds(5))
        await simulation.stop()
    }

    @Test func addingAndCrashingDevicesShowsInPresence() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let simulation = try await Simulation.start(Self.options(directory))
        #expect(try await until(simulation.changes) { simulation.isSettled })
        await simulation.addDevice()
        #expect(
            try await until(simulation.changes) {
                simulation.isSettled && simulation.users.flatMap(\.connections).count == 4
            })
        await simulation.crashRandomDevice()
        // The server notices the dropped socket and runs the crashed device's onDisconnect.
        #expect(
            try await until(simulation.changes) {
                simulation.isSettled && simulation.users.flatMap(\.connections).count == 3
            })
        await simulation.stop()
    }

    @Test func thisDevicesCredentialIsRenewedFiveMinutesBeforeItExpires() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulation-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = TestTime()
        var options = Self.options(directory)
        options.users = 0
        options.time = TimeSource(wall: { UnixTime.now() }, clock: time.timers)  // timers moved by hand
        let renewals = Mutex<[UnixTime]>([])
        let simulation = try await Simulation.start(options) { event in
            if case .credentialRenewed(let expiresAt) = event.kind { renewals.withLock { $0.append(expiresAt) } }
        }
        #expect(
            try await until(simulation.changes) { simulation.snapshot().thisDevice?.status.phase.isConnected == true })
        let first = try #require(simulation.snapshot().thisDevice?.credentialExpiresAt)
        // 54 minutes into the hour-long token: nothing yet.
        await time.advance(by: .seconds(54 * 60))
        await Task.yield()
        #expect(renewals.withLock { $0 }.isEmpty)
        // 55 minutes in: a new token, which lasts an hour from now (the machine's clock; whole seconds).
        await time.advance(by: .seconds(61))
        #expect(try await until(simulation.changes) { renewals.withLock { $0.count } == 1 })
        let renewed = try #require(renewals.withLock { $0.first })
        #expect(renewed >= first)
        #expect(simulation.snapshot().thisDevice?.credentialExpiresAt == renewed)
        // The server took it: this device stays signed in and its writes go through.
        simulation.queueWrites(1)
        #expect(try await until(simulation.changes) { simulation.snapshot().thisDevice?.pendingWrites.isEmpty == true })
        #expect(simulation.snapshot().thisDevice?.deadLetters.isEmpty == true)
        // And the next renewal is set for 55 minutes after this one.
        await time.advance(by: .seconds(55 * 60 + 1))
        #expect(try await until(simulation.changes) { renewals.withLock { $0.count } == 2 })
        await simulation.stop()
    }
}
