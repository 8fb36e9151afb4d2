import DequeModule
import Logging
import OrderedCollections
import RTDBCore
import RTDBRules
import RTDBWire

/// One namespace (database): the tree, its listens and sessions, and its durability pipeline.
///
/// Every write of the namespace, from any connection or REST request, is applied here in one
/// total order, to a working tree that the next writes are judged on. Readers see another tree,
/// the stored one: the flusher commits everything pending in one transaction while new writes
/// keep arriving (group commit), and only then publishes the batch's writes to listens and
/// acknowledges them. A batch the disk does not take is refused with what came after it (the
/// working tree goes back to the stored one), so nothing a reader saw or a writer was told is
/// ever lost (docs/reliability.md).
public actor DatabaseEngine {
    /// What it was given when it opened: name, store, clocks, logger, metrics, policies.
    let context: NamespaceContext

    /// The working tree writes are judged on, the stored tree readers see, the writes applied.
    var data: NamespaceData
    /// What is applied but not yet on disk, what waits for it, and the flusher that commits it
    /// (DurabilityPipeline.swift).
    var durability: DurabilityPipeline
    /// Reads waiting for writes before them to be published, and ``until(_:)``'s barriers.
    var waiters = EngineWaiters()
    /// Listens and Server-Sent Events streams, by outlet, path and query.
    var listens = ListenRegistry()
    /// Live sessions, and those of an earlier run of the server that have not come back.
    var sessions: SessionTable
    /// The security rules every request is checked against (open unless the server has some).
    var rulesInForce: RulesInForce
    /// Sessions that ended, waiting to be closed together (``closeSessionWithOthers(outlet:)``).
    nonisolated let closings = ClosingQueue()
    /// Signalled after stored writes are published (and at what else its metrics signal): what
    /// a test or a tool waits on instead of reading the data again and again.
    public nonisolated var changes: ChangeSignal { metrics.changes }

    /// The namespace's name.
    public nonisolated var namespace: String { context.namespace }
    /// Where its writes are stored.
    nonisolated var store: any DurableStore { context.store }
    /// Its wall clock.
    nonisolated var clock: WallClock { context.clock }
    /// What its timers sleep on.
    nonisolated var timers: any Clock<Duration> { context.timers }
    /// The server's table of connections.
    nonisolated var connections: ConnectionTable { context.connections }
    /// Where it logs.
    nonisolated var logger: Logger { context.logger }
    /// How credentials are read.
    nonisolated var credentials: CredentialPolicy { context.credentials }
    /// What one connection may hold.
    nonisolated var limits: ConnectionLimits { context.limits }
    /// What the server counts.
    nonisolated var metrics: ServerMetrics { context.metrics }
    /// The security rules in force.
    var rules: SecurityRules { rulesInForce.rules }

    /// Opens a namespace over a store, replaying what the store holds.
    ///
    /// - Parameters:
    ///   - time: The namespace's wall clock (server timestamps, token expiry) and what its timers
    ///     (credential expiry, orphan grace, the stop's bound) sleep on.
    ///   - checkpointInterval: After this many logged writes the log is compacted into a snapshot.
    ///   - orphanGrace: How long sessions the store still holds onDisconnect writes for (the
    ///     server stopped without ending them) have to come back before their writes run.
    public static func open(
        namespace: String, store: any DurableStore, time: TimeSource = .system,
        connections: ConnectionTable, logger: Logger, checkpointInterval: Int = 50_000,
        credentials: CredentialPolicy = CredentialPolicy(), rules: SecurityRules = .open,
        orphanGrace: Duration = .seconds(15),
        limits: ConnectionLimits = ConnectionLimits(), metrics: ServerMetrics = ServerMetrics()
    ) async throws -> DatabaseEngine {
        let (root, sequence) = try await store.load()
        let keys = try await store.loadAppliedKeys(limit: AppliedKeys.capacity)
        let orphans = try await store.loadOnDisconnect()
        let engine = DatabaseEngine(
            namespace: namespace, store: store, clock: time.wall, connections: connections, logger: logger,
            checkpointInterval: checkpointInterval, credentials: credentials, rules: rules,
            timers: time.clock, orphanGrace: orphanGrace, limits: limits, metrics: metrics, root: root,
            sequence: sequence)
        await engine.remember(keys)
        await engine.startFlusher()
        await engine.adopt(orphans)
        return engine
    }

    private init(
        namespace: String, store: any DurableStore, clock: @escaping WallClock,
        connections: ConnectionTable, logger: Logger, checkpointInterval: Int, credentials: CredentialPolicy,
        rules: SecurityRules, timers: any Clock<Duration>, orphanGrace: Duration, limits: ConnectionLimits,
        metrics: ServerMetrics, root: Node, sequence: UInt64
    ) {
        self.context = NamespaceContext(
            namespace: namespace, store: store, clock: clock, timers: timers, connections: connections, logger: logger,
            credentials: credentials, limits: limits, metrics: metrics)
        self.sessions = SessionTable(orphanGrace: orphanGrace, connections: connections)
        // Each namespace counts its own evaluations, though the server gives all the same rules.
        self.rulesInForce = RulesInForce(rules)
        self.data = NamespaceData(root: root, sequence: sequence)
        self.durability = DurabilityPipeline(durableSequence: sequence, checkpointInterval: checkpointInterval)
    }

    private func remember(_ keys: [(key: String, sequence: UInt64)]) { data.remember(keys) }

    private func startFlusher() {
        guard !store.isVolatile else { return }
        durability.flusher.task = Task { await self.runFlusher() }
    }

    /// The whole tree as of the newest applied write.
    public var currentRoot: Node { data.working }

    /// The number of writes applied since the namespace was created.
    public var sequence: UInt64 { data.appliedSequence }

    /// The number of open WebSocket sessions.
    public var sessionCount: Int { sessions.count }

    /// The number of active listens (WebSocket and SSE).
    public var listenCount: Int { listens.count }

    /// Whether the namespace can be closed without anyone noticing: no session, no listen or
    /// stream, every write durable and delivered, and the rules it opened with.
    public var isIdle: Bool {
        sessions.isEmpty && listens.count == 0 && durability.isSettled(applied: data.appliedSequence)
            && !rulesInForce.replaced
            && sessions.orphans.records.isEmpty
    }

    /// How long a stop waits for a commit that does not return (a disk that hangs) before it
    /// gives up what is not stored.
    static let stopBound: Duration = .seconds(2)

    /// Waits for pending writes to be durable, writes a checkpoint and releases the store.
    ///
    /// A disk that does not return from a commit within ``stopBound`` does not hold the stop:
    /// what it has not stored is given up (its writers answered that it was not stored, nothing
    /// acknowledged), and the file is left as it is (SQLite's journal keeps it whole).
    public func close() async {
        guard !durability.flusher.isClosed else { return }
        sessions.orphans.timer?.cancel()
        durability.close()
        // The stop already gave up on this disk: its last attempt is not waited for long again.
        let bound = durability.flusher.stopGaveUp ? Duration.milliseconds(250) : Self.stopBound
        if let task = durability.flusher.task, !(await Self.finishes(task, within: bound, on: timers)) {
            if !durability.flusher.stopGaveUp {
                logger.error("namespace \(namespace): its disk did not finish a commit within \(bound) as it closes")
            }
            giveUp()
            return
        }
        do {
            // In a task of its own, so that a cancelled caller still closes the file cleanly.
            let store = store
            try await Task { try await store.close() }.value
        } catch {
            logger.error("closing the store of namespace \(namespace) failed: \(error)")
        }
    }

    // MARK: - Durability

    /// Hands an applied write to the flusher; with a store that keeps nothing it is published at
    /// once.
    func log(_ write: DurabilityPipeline.Applied) {
        if store.isVolatile {
            metrics.writes.stored.increment()
            if !write.byServer { metrics.writes.ackSeconds.record(ContinuousClock.now - write.appliedAt) }
            durability.volatileApplied(write.record.sequence)
            publish([write], upTo: data.working)
            return
        }
        durability.append(write)
    }

    /// Returns once every write up to `sequence` is durable: true, or false when the disk did not
    /// take it (refused, or given up as the namespace closed; never acknowledged).
    ///
    /// Call it in the same turn of the engine as the write (as ``setStored(_:data:expectedHash:auth:)``
    /// does): the numbers of refused writes are made again, so a wait that starts after a
    /// refusal could wait for, or hear of, another write.
    @discardableResult
    func waitUntilDurable(_ sequence: UInt64) async -> Bool {
        if sequence <= durability.durableSequence { return true }
        return await withCheckedContinuation { continuation in durability.wait(for: sequence, continuation) }
    }

    /// Records a change to a session's stored onDisconnect writes for the flusher.
    ///
    /// - Parameter outletID: The live session that made it (its answer waits for it, and it is
    ///   refused if the disk does not take it); nil when the server made it as a session ended.
    func log(_ record: OnDisconnectRecord, by outletID: Int?) {
        guard !store.isVolatile else { return }
        durability.append(record, by: outletID)
    }

    func wakeFlusher() { durability.flusher.wake() }

    /// Sends an item after everything held before it for the same outlet.
    func send(_ item: OutboundItem, to outlet: Outlet) {
        if let now = durability.hold(item, for: outlet) { outlet.send(now) }
    }

    /// Notes which top-level key a write touched, for the next checkpoint.
    func markDirty(_ path: Path) { durability.markDirty(path) }
}
