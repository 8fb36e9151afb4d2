import Dispatch
import Foundation
import Logging
import RTDBCore
import RTDBWire
import Synchronization

/// One database connection's engine: the sync trees, the connection and the event queue
/// (docs/client-engine.md#the-repo).
///
/// `@unchecked Sendable` is safe because all mutable state is touched only on `engineQueue`, a
/// serial queue: the API enters it only through the verbs of `Repo+Door.swift`, each of which
/// hops itself (`schedule`; `take` for a write, deferred to the end of the turn when the repo's
/// own work calls it; the re-entrant `performNow` where it returns a value), and the
/// connection delivers on it. Push ids and the published status are the exceptions, each under
/// its own lock.
final class Repo: @unchecked Sendable {
    /// What it was given when made: its queue, the callback queue, clock, logger, change signal,
    /// settings.
    let context: RepoContext
    let connection: PersistentConnection
    let serverTree = SyncTree()
    /// What the client knows of its connection and tells the app: `.info`, the published
    /// status, the server-time offset and the push ids made with it.
    let info: InfoState
    /// Runs the transactions, and keeps those in flight and the named ones.
    lazy var transactions = TransactionRunner(host: self)
    /// The disk, when persistence is on and its file could be opened.
    var disk: RepoDisk?
    /// Cache reads started for listens added while the engine starts (any thread may ask).
    let readAhead = ReadAhead()
    /// The app's writes: the queue, its numbering, its watchers and its bound (made in `init`).
    lazy var userWrites = UserWrites(host: self, ids: WriteIDs(instance: ""), maxBytes: 0)
    /// Marks the repo's queue: a read made on it runs inline, a write at the end of the turn.
    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// The serial queue all of the engine's work runs on.
    var engineQueue: DispatchQueue { context.engineQueue }
    /// Where the app's callbacks run.
    var callbackQueue: DispatchQueue { context.callbackQueue }
    /// The wall clock.
    var clock: WallClock { context.clock }
    /// Where it logs.
    var logger: Logger { context.logger }
    /// Signalled after each change the engine makes visible (``Database/changes``).
    var changes: ChangeSignal { context.changes }
    /// Whether the queue targets an ``EngineConfinement``'s.
    var isConfined: Bool { context.isConfined }
    /// Whether persistence was asked for.
    var persistsWrites: Bool { context.persistsWrites }
    /// The server's time minus this machine's, as last measured.
    var serverTimeOffset: Duration { info.serverTimeOffset }
    /// Writes waiting for the server, and the dead letters.
    var pendingWrites: PendingWriteQueue {
        get { userWrites.queue }
        set { userWrites.queue = newValue }
    }

    init(
        baseURL: String, namespace: String, transport: any Transport, time: TimeSource = .system,
        callbackQueue: DispatchQueue, logger: Logger,
        connects: Bool = true, persistence: PersistenceSettings? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(), maxPendingBytes: Int = Database.defaultMaxPendingBytes,
        tokenProvider: (any DatabaseTokenProvider)? = nil, confinement: EngineConfinement? = nil,
        changes: ChangeSignal = ChangeSignal(), database: Database? = nil
    ) {
        let engineQueue = DispatchQueue(label: "presencetop.database.\(namespace)", target: confinement?.queue)
        context = RepoContext(
            engineQueue: engineQueue, callbackQueue: callbackQueue, clock: time.wall, logger: logger, changes: changes,
            isConfined: confinement != nil, persistsWrites: persistence != nil)
        info = InfoState(
            pushIDs: PushIDSource(PushIDGenerator(random: confinement?.random(for: 2) ?? SystemRandomNumberGenerator()))
        )
        connection = PersistentConnection(
            engineQueue: engineQueue, baseURL: baseURL, namespace: namespace, transport: transport, time: time,
            retryPolicy: retryPolicy,
            random: confinement?.random(for: 3))
        connection.delegate = self
        serverTree.listenProvider = self
        let infoProvider = InfoListenProvider(repo: self)
        info.provider = infoProvider
        info.tree.listenProvider = infoProvider
        engineQueue.setSpecific(key: Repo.queueKey, value: ObjectIdentifier(self))
        // Made here, before the queue runs anything, so no other thread sees it made.
        if var seeded = confinement?.random(for: 1) {
            userWrites.ids = WriteIDs(using: &seeded)
        } else {
            var system = SystemRandomNumberGenerator()
            userWrites.ids = WriteIDs(using: &system)
        }
        userWrites.maxBytes = maxPendingBytes
        transactions.database = database
        engineQueue.async { [self] in
            if let persistence { openDisk(persistence) }
            raise(info.setConnected(false))
            raise(info.setServerTimeOffset(.zero))
            // A provider set before the engine started is asked before the first connection.
            if let tokenProvider {
                persistCredential(nil)
                connection.auth.setProvider(tokenProvider)
            }
            if connects { connection.resume() } else { connection.shutDown() }
            // The queue is restored while the connection is made: what the connection reports
            // (its hello first, which hands the queue over) waits on this queue until then.
            if persistence != nil { restoreQueue() }
        }
    }

    /// The server's time as estimated here.
    var serverTime: UnixTime { clock() + serverTimeOffset }

    /// A push id for now in server time; callable from any thread.
    func nextPushID() -> String {
        info.pushIDs.next(now: clock())
    }

    func tree(for path: Path) -> SyncTree { path.isInfo ? info.tree : serverTree }

    // MARK: - Events

    /// Traps, in debug builds, when called off ``queue``: the confinement that makes this type's
    /// `@unchecked Sendable` safe, checked where every change passes.
    @inline(__always)
    func assertConfined() {
        #if DEBUG
            // A confinement queue runs one thing at a time: an engine's work inline there is
            // as confined as on its own queue.
            if !EngineConfinement.isOnConfinedQueue { dispatchPrecondition(condition: .onQueue(engineQueue)) }
        #endif
    }

    /// Runs the events' callbacks on the callback queue, in order.
    func raise(_ events: [SyncEvent]) {
        assertConfined()
        guard !events.isEmpty else { return }
        let calls: [@Sendable () -> Void] = events.compactMap { event in
            guard let registration = event.registration as? ObserverRegistration else { return nil }
            return registration.call(for: event)
        }
        guard !calls.isEmpty else { return }
        let changes = changes
        callbackQueue.async {
            for call in calls { call() }
            changes.signal()
        }
    }

    /// Reports the server's answer to a completion block (nil for `ok`), on the callback queue.
    func complete(_ callback: (@Sendable (DatabaseError?) -> Void)?, status: WireStatus, data: JSONValue) {
        complete(callback, error: status.isOK ? nil : DatabaseError(status: status, data: data))
    }

    /// Reports an outcome to a completion block, on the callback queue.
    func complete(_ callback: (@Sendable (DatabaseError?) -> Void)?, error: DatabaseError?) {
        guard let callback else { return }
        let changes = changes
        callbackQueue.async {
            callback(error)
            changes.signal()
        }
    }
}

extension Repo: TransactionHost, UserWritesHost {}

extension Repo: ListenProvider {
    func startListening(
        _ query: QuerySpec, tag: Int?, hash: @escaping () -> String, onComplete: @escaping (WireStatus) -> [SyncEvent]
    ) -> [SyncEvent] {
        connection.listen(query, tag: tag, hash: hash) { [weak self] status, data in
            if case .array(let warnings)? = data["w"], warnings.contains("no_index") { self?.warnNoIndex(query) }
            self?.raise(onComplete(status))
        }
        return []
    }

    /// Tells the developer which `.indexOn` the server asked for (its `no_index` warning).
    private func warnNoIndex(_ query: QuerySpec) {
        let order: String
        switch query.params.index {
        case .child(let child): order = child.relativeString
        default: order = ".value"
        }
        logger.warning(
            """
            the query at \(query.path) orders by '\(order)', which the server's rules do not index: it \
            reads every child to answer; add ".indexOn": "\(order)" at \(query.path) in the rules
            """)
    }

    func stopListening(_ query: QuerySpec, tag: Int?) {
        connection.unlisten(query, tag: tag)
    }
}

extension Repo: PersistentConnectionDelegate {
    func connectionDidConnect(sessionID: String, serverTimeOffset: Duration) {
        handOverRestoredWrites()
        raise(info.setServerTimeOffset(serverTimeOffset))
        raise(info.setConnected(true))
    }

    func connectionServerTimeOffsetDidChange(_ offset: Duration) {
        raise(info.setServerTimeOffset(offset))
    }

    /// The server's data at `path` (for the query `tag`, if tagged), and the transactions it
    /// touches run again.
    private func applyServerData(_ node: Node, at path: Path, tag: Int?) {
        if let tag {
            raise(serverTree.applyTaggedQueryOverwrite(path, node, tag: tag))
        } else {
            raise(serverTree.applyServerOverwrite(path, node))
        }
        transactions.rerun(affectedBy: path)
    }

    func connectionDidDisconnect() {
        pendingWrites.markAllQueued()
        raise(info.setConnected(false))
        userWrites.runOnDisconnectLocally()
    }

    func connectionDidReceive(_ push: ServerPush) {
        switch push {
        case .data(let path, let data, let tag):
            guard let node = try? Node(json: data, at: path) else { return }
            applyServerData(node, at: path, tag: tag)
        case .dataNode(let path, let node, let tag):
            applyServerData(node, at: path, tag: tag)
        case .merge(let path, let data, let tag):
            var children: [(path: Path, node: Node)] = []
            for (key, value) in data {
                guard let node = try? Node(json: value, at: path.child(key.string)) else { return }
                children.append((Path(key.string), node))
            }
            if let tag {
                raise(serverTree.applyTaggedQueryMerge(path, children, tag: tag))
            } else {
                raise(serverTree.applyServerMerge(path, children))
            }
            transactions.rerun(affectedBy: path)
        case .listenRevoked(let path, _):
            let error = DatabaseError(code: .permissionDenied, message: "permission_denied at \(path)")
            raise(serverTree.removeEventRegistration(nil, for: .default(path), cancelError: error))
        case .authRevoked(let status, let reason):
            logger.warning("credential revoked (\(status)): \(reason)")
        case .appCheckRevoked, .securityDebug:
            break
        }
    }

    func connectionDidLearnHost(_ host: String?) {
        // Kept for the next run, keyed by the URL's host (nil forgets it).
        disk?.save(setting: RepoDisk.hostSetting(connection.configuredHost), host)
    }

    func connectionWritesPaused(_ reason: String?) {
        if let reason { logger.warning("writes paused: \(reason)") }
        pendingWrites.setPaused(reason)
    }

    func connectionStatusDidChange(_ status: ConnectionStatus) {
        info.status.publish(status, on: callbackQueue, changes: changes)
    }
}

/// Serves listens under `.info` from the values kept locally: they never go to the server.
extension Repo {
    /// Closes the engine for good: disconnects, saves what is pending, and lets go of the views,
    /// writes, observers and the file.
    ///
    /// Observers hold the database through their queries, and requests hold the repo: without
    /// this a closed instance would never be freed (the dashboard starts and stops dozens).
    /// Callers still waiting for pending writes are released, as nothing more will be answered.
    func shutDown() {
        connection.shutDown()
        saveAcknowledgements()
        userWrites.shutDown()
        serverTree.removeAll()
        info.removeAll()
        transactions.removeAll()
        serverTree.persistence = nil
        readAhead.invalidate()
        // A read ahead still running on another core must end before the store closes.
        readAhead.waitForReads()
        disk?.close()
        disk = nil
    }
}

final class InfoListenProvider: ListenProvider {
    unowned let repo: Repo

    init(repo: Repo) { self.repo = repo }

    func startListening(
        _ query: QuerySpec, tag: Int?, hash: @escaping () -> String, onComplete: @escaping (WireStatus) -> [SyncEvent]
    ) -> [SyncEvent] {
        let node = repo.info.data.child(at: query.path)
        guard !node.isEmpty else { return [] }
        // An overwrite at the view's own path makes it complete: no listen-complete step needed.
        return repo.info.tree.applyServerOverwrite(query.path, node)
    }

    func stopListening(_ query: QuerySpec, tag: Int?) {}
}
