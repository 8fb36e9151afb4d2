import Foundation
import LinkSim
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// The client's and server's behaviour over a network that fails, on a clock the test moves.
///
/// Reconnection and back-off, heartbeat death and the presence flow, a queue that outlives a
/// restart, onDisconnect across a server kill, rules and transactions over slow links. Devices
/// reach an in-process server through ``SimulatedLink``s (the chaos run's links), so nothing
/// here waits on the machine's clock or a socket (the deterministic tier).
@Suite struct SimulatedNetworkTests {
    /// The source document's presence flow, as an app writes it.
    static func startPresence(_ database: Database, user: String) {
        let connections = database.reference(withPath: "users/\(user)/connections")
        let lastOnline = database.reference(withPath: "users/\(user)/lastOnline")
        database.reference(withPath: ".info/connected").observe(.value) { snapshot in
            guard snapshot.value as? Bool ?? false else { return }
            let entry = connections.childByAutoId()
            entry.onDisconnectRemoveValue()
            entry.setValue(["device": "phone", "connectedAt": ServerValue.timestamp()], andPriority: nil)
            lastOnline.onDisconnectSetValue(ServerValue.timestamp())
        }
    }

    /// The retry a device waits for now, if it waits for one.
    static func retry(_ database: Database) -> (attempt: Int, at: UnixTime)? {
        guard case .waitingToRetry(let attempt, let at?, _) = database.connectionStatus.phase else { return nil }
        return (attempt, at)
    }

    @Test func aDeviceRetriesOnItsBackOffWhileTheServerIsDownAndItsQueueDrainsAfter() async throws {
        let network = try await SimulatedNetwork.start()
        let (link, device) = network.device("phone")
        let (_, other) = network.device("laptop")
        let policy = device.retryPolicy
        let seen = Recorder<JSONValue>()
        device.reference(withPath: "notes").observe(.value) { seen.record((try? JSONValue(any: $0.value)) ?? .null) }
        try await device.reference(withPath: "notes/a").setValue("before")
        try await network.server.kill()
        #expect(try await until(device.changes) { Self.retry(device) != nil })
        let acknowledged = Recorder<Bool>()
        device.reference(withPath: "notes/b").setValue("while down") { error, _ in acknowledged.record(error == nil) }

        // Each attempt comes when the back-off says, not a millisecond before, and the waits
        // grow to the policy's maximum (1 s × 1.3ⁿ reaches 30 s at the 14th failure).
        var asked = link.connectionsAsked
        var previousAttempt = 0
        var waits: [Duration] = []
        var attempts: [Int] = []
        for _ in 0..<16 {
            var next: (attempt: Int, at: UnixTime)?
            #expect(
                try await until(device.changes) {
                    next = Self.retry(device)
                    return (next?.attempt ?? 0) > previousAttempt
                })
            guard let (attempt, retryAt) = next else { break }
            previousAttempt = attempt
            let wait = retryAt - network.time.now
            let failures = attempt - 1
            #expect(wait >= policy.delay(afterFailures: failures, random: 0) - .milliseconds(1))
            #expect(wait <= policy.delay(afterFailures: failures, random: 1))
            waits.append(wait)
            attempts.append(attempt)
            await network.time.advance(by: wait - .milliseconds(1))
            await device.barrier()
            #expect(link.connectionsAsked == asked, "attempt \(attempt) came before its time")
            await network.time.advance(by: .milliseconds(2))
            #expect(try await until(link.changes) { link.connectionsAsked == asked + 1 })
            asked += 1
        }
        #expect(waits.count == 16)
        #expect(waits.allSatisfy { $0 <= policy.maximumDelay })
        #expect(waits.suffix(3).allSatisfy { $0 >= policy.maximumDelay * (1 - policy.jitter) }, "\(attempts) \(waits)")
        #expect(acknowledged.all.isEmpty, "nothing was acknowledged while the server was down")

        // Back: the next attempt connects, the queued write is acknowledged and stored.
        try await network.server.start()
        #expect(try await until(device.changes) { (Self.retry(device)?.attempt ?? 0) > previousAttempt })
        let (_, retryAt) = try #require(Self.retry(device))
        await network.time.advance(by: retryAt - network.time.now + .milliseconds(1))
        #expect(try await until(device.changes) { acknowledged.all == [true] })
        #expect(await network.server.read("notes") == ["a": "before", "b": "while down"])
        // The listen was made again on the new connection: another device's change arrives.
        try await other.reference(withPath: "notes/c").setValue("from the laptop")
        #expect(
            try await until(device.changes) { seen.last == ["a": "before", "b": "while down", "c": "from the laptop"] })
        await network.tearDown([device, other])
    }

    @Test func aDeviceGoneSilentIsEndedByTheHeartbeatAndItsPresenceGoesAndComesBack() async throws {
        let network = try await SimulatedNetwork.start()
        let (link, device) = network.device("phone", heartbeat: .seconds(30))
        let (_, watcher) = network.device("watcher", heartbeat: .seconds(30))
        Self.startPresence(device, user: "morgan")
        let connections = Recorder<Int>()
        let lastOnline = Recorder<Int64>()
        watcher.reference(withPath: "users/morgan/connections").observe(.value) {
            connections.record(Int($0.childrenCount))
        }
        watcher.reference(withPath: "users/morgan/lastOnline").observe(.value) {
            if let value = $0.value as? NSNumber { lastOnline.record(value.int64Value) }
        }
        #expect(try await until(watcher.changes) { connections.last == 1 })
        // The flow's last request (lastOnline's onDisconnect) has reached the server too: a read
        // made after it is answered after it. (Cut off before it, the session would end with the
        // entry removed and no lastOnline: the flow's order is the app's.)
        try await device.serverRoundTrip()

        // The network swallows everything: the server hears nothing, and ends the session
        // between one and two heartbeats later; its onDisconnect writes run at the server's time.
        link.mode = .blackhole
        let silentFrom = network.time.now
        let ended = await network.run(upTo: .seconds(90), settling: [device, watcher]) {
            connections.last == 0 && lastOnline.last != nil
        }
        #expect(ended, "seen \(connections.all)")
        let gone = UnixTime(millisecondsSince1970: lastOnline.last ?? 0)
        #expect(gone - silentFrom >= .seconds(30) && gone - silentFrom <= .seconds(65), "\(gone - silentFrom)")
        #expect(watcher.connectionStatus.phase.isConnected, "the watcher answered the server's pings")

        // The network is back: the device connects again and writes a new entry.
        link.mode = .up
        let back = await network.run(upTo: .seconds(90), settling: [device, watcher]) { connections.last == 1 }
        #expect(back, "seen \(connections.all), device \(device.connectionStatus.phase)")
        await network.tearDown([device, watcher])
    }

    /// Was: the simulated server's end counted only protocol frames, so a device that said nothing
    /// for a heartbeat was ended, though a real client's WebSocket answers the server's pings by
    /// itself; a lab of idle devices on a 5 s heartbeat lost them all at 10 s.
    @Test func anIdleDeviceAnswersTheServersPingsAndStays() async throws {
        let network = try await SimulatedNetwork.start()
        let (link, device) = network.device("phone", heartbeat: .seconds(5))
        var policy = RetryPolicy()
        policy.pingInterval = .seconds(600)  // the client itself sends nothing for ten minutes
        device.retryPolicy = policy
        device.reference(withPath: "notes/a").setValue("hello", andPriority: nil)
        #expect(await network.run(upTo: .seconds(5), settling: [device]) { device.pendingWrites.isEmpty })
        let session = device.connectionStatus.phase
        #expect(session.isConnected)
        let before = link.stats

        #expect(await network.run(upTo: .seconds(60), settling: [device]) { false } == false)
        #expect(device.connectionStatus.phase == session, "the same session after twelve heartbeats")
        #expect(link.connectionsAsked == 1)
        #expect(link.stats.bytesUp == before.bytesUp, "no frame was sent: the pings are the WebSocket's")
        #expect(before.bytesUp > 0 && before.bytesDown > 0 && before.acceptedConnections == 1)
        await network.tearDown([device])
    }

    @Test func writesQueuedOfflineSurviveARestartAndDrainInOrder() async throws {
        let network = try await SimulatedNetwork.start()
        let (link, device) = network.device("phone", persistence: "phone.sqlite")
        link.mode = .offline
        device.reference(withPath: "log/1").setValue("first", andPriority: nil)
        device.reference(withPath: "log").updateChildValues(["2": "second", "3": "third"], withCompletionBlock: nil)
        device.reference(withPath: "log/1").removeValue { _, _ in }
        await device.barrier()
        #expect(device.pendingWrites.count == 3)
        #expect(await network.server.read("log") == .null)
        // The app quits with three writes queued; it starts again on a network that works.
        device.close()
        await link.stop()
        let (_, reopened) = network.device("phone", persistence: "phone.sqlite")
        #expect(reopened.pendingWrites.count == 3, "the queue was read back from the file")
        await reopened.waitForPendingWrites()
        let stored = await network.server.read("log")
        #expect(stored == ["2": "second", "3": "third"], "\(String(describing: stored)) \(reopened.pendingWrites)")
        #expect(reopened.pendingWrites.isEmpty)
        await network.tearDown([reopened])
    }

    @Test func anOnDisconnectOutlivesAServerKillAndRunsWhenTheDeviceDoesNotReturn() async throws {
        let network = try await SimulatedNetwork.start()
        let (link, device) = network.device("phone")
        let status = device.reference(withPath: "status")
        try await status.setValue("online")
        let registered = Recorder<Bool>()
        status.onDisconnectSetValue("offline") { error, _ in registered.record(error == nil) }
        #expect(try await until(device.changes) { registered.all == [true] })
        // The server dies with the device's session open; the device dies too.
        try await network.server.kill()
        await link.stop()
        try await network.server.start()
        #expect(await network.server.read("status") == "online", "the write survived the kill")
        // Nobody comes back for the session within the orphans' grace (15 s): its write runs.
        let engine = try #require(network.server.engine)
        await network.time.advance(by: .seconds(14))
        #expect(await network.server.read("status") == "online")
        await network.time.advance(by: .seconds(2))
        #expect(try await until(engine.changes) { await network.server.read("status") == "offline" })
        await network.tearDown([device])
    }

    @Test func theRulesRefuseAnotherUsersEntryOverTheLinkAndTheDeviceTakesItBack() async throws {
        let network = try await SimulatedNetwork.start(rules: PresenceRules.rules)
        let (_, device) = network.device("phone")
        device.setCredential(.emulatorUser(uid: "morgan"))
        let entry: [String: Any] = ["device": "phone", "connectedAt": ServerValue.timestamp()]
        try await device.reference(withPath: "users/morgan/connections/a").setValue(entry)
        let seen = Recorder<Bool>()
        let other = device.reference(withPath: "users/alex/connections/b")
        other.observe(.value) { seen.record($0.exists()) }
        let outcome = Recorder<String>()
        other.setValue(entry) { error, _ in outcome.record((error as? DatabaseError)?.code.rawValue ?? "ok") }
        #expect(try await until(device.changes) { outcome.all == ["permission_denied"] })
        #expect(try await until(device.changes) { seen.last == false }, "the refused write was taken back")
        #expect(seen.all.contains(true), "it showed locally before the server answered")
        #expect(await network.server.read("users/alex") == .null)
        #expect(await network.server.read("users/morgan/connections/a/device") == "phone")
        await network.tearDown([device])
    }

    @Test func transactionsFromTwoDevicesOverSlowJitteryLinksAllCount() async throws {
        let network = try await SimulatedNetwork.start()
        let phone = network.device("phone")
        let laptop = network.device("laptop")
        let committed = Recorder<Bool>()
        for (link, database) in [phone, laptop] {
            try link.setConditions(LinkConditions(latency: .milliseconds(80), jitter: .milliseconds(60)))
            for _ in 0..<5 {
                database.reference(withPath: "counter").runTransactionBlock { data in
                    data.value = ((data.value as? NSNumber)?.intValue ?? 0) + 1
                    return .success(withValue: data)
                } andCompletionBlock: { error, done, _ in
                    committed.record(error == nil && done)
                }
            }
        }
        let finished = await network.run(upTo: .seconds(60), step: .milliseconds(50)) { committed.all.count == 10 }
        #expect(finished, "\(committed.all.count) of 10 transactions finished")
        #expect(committed.all.allSatisfy { $0 })
        #expect(await network.server.read("counter") == 10)
        await network.tearDown([phone.database, laptop.database])
    }
}
