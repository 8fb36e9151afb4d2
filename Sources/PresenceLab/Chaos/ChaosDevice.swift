import DiskFaults
import Foundation
import LinkSim
import Presence
import RTDBClient
import RTDBCore
import RTDBWire
import Synchronization

/// One device of a chaos run: its own link, its own persistent database (a SQLite file that
/// outlives its crashes), its presence session, and the ledger of what it was told it wrote.
public final class ChaosDevice: Sendable {
    /// The device's index.
    public let index: Int
    /// Its user.
    public let user: String
    /// Its name within the user.
    public let name: String
    let clock: SkewedClock
    let stage: ChaosStage
    /// Its folder, on a disk a fault fills.
    private let disk: ChaosDisk
    private let state = Mutex(State())

    private struct State {
        var link: (any NetworkLink)?
        var database: Database?
        var session: PresenceSession?
        var isDown = false
        var isGone = false
        var wentOffline = false
        /// Whether the current boot's connection is up, as `.info/connected` last said.
        var online = false
        /// Counts boots, so a closed database's late callback cannot speak for the next one.
        var boots = 0
        var ledger = ChaosLedger()
    }

    init(index: Int, user: String, name: String, folder: URL, stage: ChaosStage) {
        self.index = index
        self.user = user
        self.name = name
        self.stage = stage
        clock = SkewedClock(base: stage.time.wall)
        disk = ChaosDisk(folder: folder)
    }

    /// `user/name`.
    public var label: String { "\(user)/\(name)" }
    /// Whether the device is gone for good (it ended the run dead).
    public var isGone: Bool { state.withLock { $0.isGone } }
    /// Whether a connection of it ever ended: its user must then have a `lastOnline`.
    ///
    /// It ended when the device saw `.info/connected` go false, or crashed while connected, after
    /// the server had taken the session's `lastOnline` onDisconnect (a session cut before that
    /// leaves no `lastOnline`, as in the documented flow). A fault the connection rode out (a
    /// blackhole shorter than the heartbeat) does not count.
    public var wentOffline: Bool { state.withLock { $0.wentOffline } }
    /// The key of its current connection entry.
    public var entryKey: String? { state.withLock { $0.session?.entryKey } }
    /// What it was told it wrote.
    public var ledger: ChaosLedger { state.withLock { $0.ledger } }
    /// Writes waiting for the server, and refused ones.
    public var pending: (queued: Int, deadLetters: [DeadLetter]) {
        let database = state.withLock { $0.database }
        return (database?.pendingWrites.count ?? 0, database?.deadLetters ?? [])
    }
    /// Whether the device is up and connected.
    public var isConnected: Bool {
        guard let database = state.withLock({ $0.database }) else { return false }
        if case .connected = database.connectionStatus.phase { return true }
        return false
    }

    /// Fills its disk (true) or gives it room again (false).
    func setDiskFull(_ full: Bool) {
        // Under the device's lock: a write sees the disk full or not, never in between.
        state.withLock { _ in disk.fill(full) }
    }

    /// Sends again the writes the server could not store, as its app would; returns how many it
    /// sent again and dropped.
    ///
    /// Those are its dead letters `unavailable`. The others the server refused that way are
    /// dropped: a transaction's attempt (its completion said it did not commit) and the presence
    /// flow's own writes (it made its connect again).
    func retryWritesNotStored() -> (sentAgain: Int, dropped: Int) {
        guard let database = state.withLock({ $0.database }) else { return (0, 0) }
        var counts = (sentAgain: 0, dropped: 0)
        for letter in database.deadLetters where letter.status == .unavailable {
            if letter.write.kind != .transaction && letter.write.path.hasPrefix("/notes/") {
                database.retryDeadLetter(withID: letter.id)
                counts.sentAgain += 1
            } else {
                database.discardDeadLetter(withID: letter.id)
                counts.dropped += 1
            }
        }
        return counts
    }

    /// Starts the device (again): a new link and a database over the same file, once its disk
    /// has room (an app cannot start on a full disk).
    func boot() async throws {
        let (link, database) = try await open()
        let session = PresenceSession(database: database, userID: user, device: name)
        let boot = state.withLock { state -> Int in
            state.boots += 1
            state.online = false
            return state.boots
        }
        stage.note("\(label) boots (\(boot))")
        database.reference(withPath: ".info/connected").observe(.value) { [weak self] snapshot in
            self?.connectionChanged(to: snapshot.value as? Bool ?? false, boot: boot)
        }
        session.start()
        state.withLock {
            $0.link = link
            $0.database = database
            $0.session = session
            $0.isDown = false
        }
    }

    /// A new link and the database over the device's file, opened: its store takes writes (a
    /// disk that filled while it opened means waiting for room and opening again).
    private func open() async throws -> (any NetworkLink, Database) {
        while true {
            while disk.isFull { try await stage.sleep(.milliseconds(100)) }
            let (link, database) = try await stage.devices.open(index, label, stage.time.withWall(clock.now))
            database.persistenceDirectory = disk.folder
            // Each boot reaches the server through a new link on a new port: named after the URL,
            // the file would be a new one, and the queue the crash left behind would never be sent.
            database.persistenceFileName = "device.sqlite"
            database.isPersistenceEnabled = true
            var policy = RetryPolicy()
            policy.minimumDelay = .milliseconds(200)
            policy.maximumDelay = .seconds(2)
            policy.connectTimeout = .seconds(5)
            policy.pingInterval = .seconds(2)
            database.retryPolicy = policy
            database.setCredential(.idToken(token(lifetime: 86_400)))
            // The app opens its store before anything else: a read of the queue waits for it.
            _ = database.pendingWrites
            if database.storeFailure == nil { return (link, database) }
            database.close()
            await link.stop()
        }
    }

    /// Follows `.info/connected`: a drop of a connection that was up is a session the server ends.
    private func connectionChanged(to connected: Bool, boot: Int) {
        let changed = state.withLock { state -> Bool in
            guard state.boots == boot, !state.isDown else { return false }
            if !connected, state.online, state.session?.isArmed == true { state.wentOffline = true }
            defer { state.online = connected }
            return state.online != connected
        }
        if changed { stage.note("\(label) \(connected ? "connected" : "disconnected")") }
    }

    /// A token as the identity provider issues it: by its clock (the machine's, the same as the
    /// server's), not the device's, which the run moves.
    func token(lifetime: Int64) -> String {
        AuthToken.emulatorToken(uid: user, issuedAt: stage.time.now().secondsSince1970, lifetime: lifetime)
    }

    /// The device's process dies: the link drops its sockets, nothing says goodbye.
    func crash() async {
        await goDown()?.stop()
    }

    /// Marks the device down and closes its database (no goodbye); returns its link, if it was up.
    private func goDown() -> (any NetworkLink)? {
        state.withLock { state -> (any NetworkLink)? in
            guard !state.isDown else { return nil }
            state.isDown = true
            if state.online, state.session?.isArmed == true { state.wentOffline = true }
            state.online = false
            state.session = nil
            state.database?.close()
            state.database = nil
            return state.link
        }
    }

    /// Dies for good at the end of the run; `silently` leaves the link swallowing everything, so
    /// that only the server's heartbeat notices.
    func dieForGood(silently: Bool) async {
        if silently {
            // The link goes dark first, so that not even the database's close gets through.
            state.withLock { $0.link }?.mode = .blackhole
            _ = goDown()
        } else {
            await crash()
        }
        state.withLock { $0.isGone = true }
    }

    /// Closes what is left (the end of the run).
    func shutDown() async {
        let link = state.withLock { state -> (any NetworkLink)? in
            state.database?.close()
            state.database = nil
            return state.link
        }
        await link?.stop()
    }

    /// Applies a network fault, or lifts it.
    func setNetwork(_ mode: LinkMode, conditions: LinkConditions = .perfect) {
        guard let link = state.withLock({ $0.isDown ? nil : $0.link }) else { return }
        link.mode = mode
        try? link.setConditions(conditions)
    }

    /// Gives the device a credential that expires in a second or two (the server revokes it).
    func expireCredential() {
        state.withLock { $0.isDown ? nil : $0.database }?.setCredential(.idToken(token(lifetime: 1)))
    }

    /// Gives the device a fresh credential.
    func renewCredential() {
        state.withLock { $0.isDown ? nil : $0.database }?.setCredential(
            .idToken(token(lifetime: 86_400)))
    }

    /// Whether the device is down (crashed, not yet restarted).
    var isDown: Bool { state.withLock { $0.isDown } }

    /// Makes one write of a kind `choice` picks, recording it once the call returned.
    ///
    /// The write and its record happen under the device's lock, so a crash cannot fall between a
    /// returned call and its record.
    func write(choice: Int) {
        state.withLock { state in
            guard !state.isDown, let database = state.database else { return }
            let base = database.reference(withPath: "notes/\(user)/\(name)")
            let number = state.ledger.next
            state.ledger.next += 1
            // On a full disk every write is refused at once (store_failed): none is accepted,
            // and none may reach the server.
            let accepted = !disk.isFull
            if !accepted { state.ledger.refusedOnFullDisk += 1 }
            stage.note("\(label) writes #\(number) (\(["set", "update", "increment", "transaction"][choice % 4]))")
            switch choice % 4 {
            case 0:
                base.child("s/\(number)").setValue(number)
                if accepted { state.ledger.sets.insert(number) }
            case 1:
                base.updateChildValues(["m/\(number)": number, "mc": ServerValue.increment(1)])
                if accepted { state.ledger.updates.insert(number) }
            case 2:
                base.child("c").setValue(ServerValue.increment(1))
                if accepted { state.ledger.increments += 1 }
            default:
                state.ledger.transactionsStarted += 1
                base.child("t").runTransactionBlock({ data in
                    data.value = ((data.value as? Int) ?? 0) + 1
                    return .success(withValue: data)
                }) { [weak self] error, committed, _ in
                    guard let self, error == nil, committed else { return }
                    self.state.withLock { $0.ledger.transactionsCommitted += 1 }
                    self.stage.note("\(label) committed transaction #\(number)")
                }
            }
        }
    }

    /// Waits until the queue is empty and the device connected, or the run reaches `deadline`.
    func drained(before deadline: Duration) async -> Bool {
        while stage.elapsed() < deadline {
            if isDown || isGone { return true }
            if isConnected, pending.queued == 0 { return true }
            try? await stage.sleep(.milliseconds(100))
        }
        return false
    }
}
