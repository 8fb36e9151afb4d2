import Dispatch
import Logging
import RTDBCore
import RTDBWire

/// What the app's writes need of the engine they run in: the sync tree and its events, the way
/// to the server, the clocks, and the callbacks' queue.
///
/// ``Repo`` is the host.
protocol UserWritesHost: AnyObject {
    /// The tree of server data and local writes.
    var serverTree: SyncTree { get }
    /// Where it logs.
    var logger: Logger { get }
    /// The wall clock.
    var clock: WallClock { get }
    /// The server's time as estimated here.
    var serverTime: UnixTime { get }
    /// Where the app's callbacks run.
    var callbackQueue: DispatchQueue { get }
    /// Signalled after each change the engine makes visible.
    var changes: ChangeSignal { get }
    /// Runs the events' callbacks on the callback queue, in order.
    func raise(_ events: [SyncEvent])
    /// Runs `body` on the engine's queue after what is already there.
    func schedule(_ body: @escaping @Sendable () -> Void)
    /// Reports an outcome to a completion block, on the callback queue.
    func complete(_ callback: (@Sendable (DatabaseError?) -> Void)?, error: DatabaseError?)
    /// Resolves server values with the estimated server time.
    func resolveLocally(_ node: Node, at path: Path, now: UnixTime?) -> Node
    /// Sends a write to the server, after the restored writes not handed over yet.
    func put(
        _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String?, idempotencyKey: String?,
        onSend: (() -> Void)?, onComplete: @escaping (WireStatus, JSONValue) -> Void)
    /// A user write was made at `path`: the transactions it overlaps are aborted.
    func userWriteMade(at path: Path)
    /// Sends an onDisconnect registration or cancel.
    func sendOnDisconnect(_ request: ClientRequest, onComplete: @escaping (WireStatus, JSONValue) -> Void)
    /// Asks the server whether this connection's onDisconnect writes would run now.
    func onDisconnectDryRun(onComplete: @escaping (WireStatus, JSONValue) -> Void)
}

/// The app's writes on their way to the server (docs/client-engine.md#writes).
///
/// Each is numbered, queued within the queue's bound (on disk with persistence), shown locally at
/// once, sent with its idempotency key, and settled by the server's answer: acknowledged,
/// reverted, or kept as a dead letter. The queue's observers hear of its changes once per turn, and its waiters once the
/// writes made before them are answered.
///
/// One of the repo's parts, used only on its queue; it owns the queue, its numbering and its
/// watchers, and reaches the rest of the engine through its ``UserWritesHost``.
///
/// `@unchecked Sendable` is safe for the reason ``Repo``'s is: every member is touched only on
/// the repo's queue, where the closures that capture it (a turn it schedules, a write's answer)
/// run.
final class UserWrites: @unchecked Sendable {
    /// Completion blocks of writes.
    typealias Completion = @Sendable (DatabaseError?) -> Void

    /// The engine it runs in, which owns it; a write's answer holds the host, as the repo's own
    /// requests hold the repo.
    ///
    /// Each load of it is a retain and a release of the repo, whose releases take Swift's slow
    /// path (it is weakly referenced, so it has a side table): the write path loads it once a
    /// call (`let host = host`), not once a use (measured: 5 loads cost a drained write ~2,000
    /// instructions, `presencetop-bench drain --callgrind`).
    unowned let host: any UserWritesHost
    /// This instance's id and the next write's number (idempotency keys).
    var ids: WriteIDs
    /// Writes waiting for the server, and the dead letters.
    var queue: PendingWriteQueue {
        didSet { queue.onChange = { [weak self] in self?.changed() } }
    }
    /// The queue's observers and the callers waiting for it to drain.
    var watchers = PendingWriteWatchers()
    /// The most bytes the queue's data may take (`persistenceMaxPendingBytes`).
    var maxBytes: Int
    /// The host's change signal, kept here: the queue changes three times a write, and most
    /// changes tell nobody else (no load of the host for them).
    let changes: ChangeSignal
    /// The writes registered to run when this connection ends, as the client knows them.
    var onDisconnect = LocalOnDisconnect()

    /// The writes of `host`, numbered by `ids`, in a queue in memory until a disk is opened.
    init(host: any UserWritesHost, ids: WriteIDs, maxBytes: Int) {
        self.host = host
        self.ids = ids
        self.maxBytes = maxBytes
        changes = host.changes
        queue = PendingWriteQueue(store: nil, logger: host.logger)
        queue.onChange = { [weak self] in self?.changed() }
    }

    /// Takes the next write id.
    func allocateID() -> Int { ids.allocate() }

    /// A set of `json` (export format), validated first: an invalid one is reported to
    /// `completion` and goes nowhere.
    func set(_ path: Path, json: JSONValue, completion: Completion?) {
        do throws(ValidationError) {
            set(path, node: try WriteInput.node(json, at: path), completion: completion)
        } catch {
            fail(completion, error)
        }
    }

    /// A multi-path update of `children` (relative paths and export-format JSON), validated first.
    func update(_ path: Path, children: [(String, JSONValue)], completion: Completion?) {
        do throws(ValidationError) {
            let nodes = try WriteInput.updateNodes(children, at: path)
            var data = JSONValue.Members()
            for (key, node) in zip(children.map(\.0), nodes.map(\.node)) { data[CodeUnitString(key)] = node.exportJSON }
            update(path, nodes: nodes, data: data, completion: completion)
        } catch {
            fail(completion, error)
        }
    }

    /// Reports an invalid write to the log and its completion block.
    func fail(_ completion: Completion?, _ error: ValidationError) {
        host.logger.error("\(error)")
        host.complete(completion, error: DatabaseError(error))
    }

    /// A set: applied locally at once (server values resolved with the estimated server time),
    /// queued, then sent.
    func set(_ path: Path, node: Node, completion: Completion?) {
        let host = host
        let write = StoredWrite(
            id: allocateID(), kind: node.isEmpty ? .remove : .set, path: path, node: node, enqueuedAt: host.clock())
        guard enqueue(write, completion: completion) else { return }
        let resolved = host.resolveLocally(node, at: path, now: nil)
        host.raise(host.serverTree.applyUserOverwrite(path, resolved, writeID: write.id))
        host.userWriteMade(at: path)
        send(write, completion: completion)
    }

    /// A multi-path update of `nodes` under `path` (their JSON `data`), as ``set(_:node:completion:)``.
    func update(_ path: Path, nodes: [(path: Path, node: Node)], data: JSONValue.Members, completion: Completion?) {
        let host = host
        if nodes.isEmpty { return host.complete(completion, error: nil) }
        let write = StoredWrite(
            id: allocateID(), kind: .update, path: path, data: .object(data), enqueuedAt: host.clock())
        guard enqueue(write, completion: completion) else { return }
        let now = host.serverTime
        let resolved = nodes.map { child in
            (child.path, host.resolveLocally(child.node, at: path.child(child.path), now: now))
        }
        host.raise(host.serverTree.applyUserMerge(path, resolved, writeID: write.id))
        host.userWriteMade(at: path)
        send(write, completion: completion)
    }

    /// Queues a user write within the queue's bound; `false` after reporting why it did not fit.
    func enqueue(_ write: StoredWrite, completion: Completion?) -> Bool {
        do throws(DatabaseError) {
            try queue.add(write, within: maxBytes)
            return true
        } catch {
            host.logger.error("\(error)")
            host.complete(completion, error: error)
            return false
        }
    }

    /// Sends a queued set or update with its idempotency key; handles the server's answer.
    func send(_ write: StoredWrite, completion: Completion?) {
        let host = host
        guard let data = write.putData else {
            // Its stored text is not what this program wrote (the file was edited): sent, it
            // would be a write nobody made. Dropped, and its local effect undone.
            host.logger.error("persistence: write \(write.id) on disk is not valid JSON any more; dropped")
            host.raise(host.serverTree.ackUserWrite(write.id, revert: true))
            queue.remove(write.id)
            return host.complete(
                completion, error: DatabaseError(code: .invalidData, message: "the stored write is not valid JSON"))
        }
        // The callbacks hold the id and path, not the write: a restart hands thousands over, and
        // each copy of a write retains every field of it.
        let (id, path) = (write.id, write.path)
        let onSend: () -> Void = { [weak self] in self?.queue.markSent(id) }
        host.put(
            write.kind == .update ? .merge : .set, path: path, data: data, hash: nil, idempotencyKey: ids.key(id),
            onSend: onSend
        ) { [self, host] status, data in
            let refusal = settle(id, at: path, syncWriteID: id, status: status, data: data, host: host)
            // Refused for now (not a dead letter): dropped, as the SDKs do.
            if let refusal, !refusal.deadLettered { queue.remove(id) }
            host.complete(completion, error: refusal?.error)
        }
    }

    /// The server's answer to a queued write (a set, an update, or a named transaction's attempt):
    /// the sync tree learns it; an acknowledged write leaves the queue, and one refused for good
    /// becomes a dead letter.
    ///
    /// - Returns: nil when acknowledged; else the error, and whether the write is now a dead letter
    ///   (if not, it is still queued, for the caller to drop or retry).
    func settle(_ id: Int, at path: Path, syncWriteID: Int, status: WireStatus, data: JSONValue) -> (
        error: DatabaseError, deadLettered: Bool
    )? {
        settle(id, at: path, syncWriteID: syncWriteID, status: status, data: data, host: host)
    }

    /// ``settle(_:at:syncWriteID:status:data:)`` with the host the caller holds already.
    private func settle(
        _ id: Int, at path: Path, syncWriteID: Int, status: WireStatus, data: JSONValue, host: any UserWritesHost
    ) -> (error: DatabaseError, deadLettered: Bool)? {
        host.raise(host.serverTree.ackUserWrite(syncWriteID, revert: !status.isOK))
        if status.isOK {
            queue.remove(id)
            return nil
        }
        let error = DatabaseError(status: status, data: data)
        guard Self.deadLetterStatuses.contains(status) else { return (error, false) }
        host.logger.warning("write \(id) at \(path) refused (\(status)): moved to the dead letters")
        queue.deadLetter(id, status: status, reason: error.message, at: host.clock())
        return (error, true)
    }

    /// Refusals that sending again would not change, and a server that could not store the write
    /// (`unavailable`, its disk failed): the write becomes a dead letter, kept with the reason
    /// for the user to send again or forget, never dropped unseen.
    static let deadLetterStatuses: Set<WireStatus> = [
        .permissionDenied, .tooBig, .invalidData, .invalidPath, .invalidRequest, .invalidQuery, .unknownAction,
        .writeTooBig, .unavailable,
    ]
}
