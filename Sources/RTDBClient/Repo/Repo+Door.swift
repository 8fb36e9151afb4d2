import Dispatch
import RTDBCore

/// The engine's one door: every call the API makes, one verb per action.
///
/// The API never touches the queue or the repo's parts: each verb hops onto the queue itself,
/// through ``schedule(_:)`` (later, for calls that return nothing), ``take(_:)`` (a write: taken
/// before it returns) or ``performNow(_:)`` (now, re-entrant, for calls that return a value). A
/// verb called from the repo's own work on the queue (a transaction's update block) never waits
/// for itself: a read answers inline, and anything else runs at the end of the current turn, as
/// FRepo defers calls made on its queue.
/// `ArchitectureTests` fails on `repo.engineQueue` or a reach into a part (`repo.x.y`) outside `Repo/`.
extension Repo {
    /// Whether the caller runs on this repo's queue, or on the confinement queue it targets
    /// (which runs one thing at a time: none of the repo's work can be running meanwhile).
    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: Repo.queueKey) == ObjectIdentifier(self)
            || (isConfined && EngineConfinement.isOnConfinedQueue)
    }

    /// Runs `body` on the queue after what is already there.
    func schedule(_ body: @escaping @Sendable () -> Void) { engineQueue.async(execute: body) }

    /// Runs `body` on the queue and returns its result; already on the queue, runs it at once.
    ///
    /// A write that returns has been taken: its local events are raised, and with persistence it
    /// is on disk (behind the opening of the file, which the queue runs first), so a crash just
    /// after cannot lose it.
    func performNow<T>(_ body: () -> T) -> T { isOnQueue ? body() : engineQueue.sync(execute: body) }

    /// Whether the caller is the repo's own work on its queue (a transaction's update block), not
    /// an app sharing the queue it is confined to.
    var isInOwnTurn: Bool { DispatchQueue.getSpecific(key: Repo.queueKey) == ObjectIdentifier(self) }

    /// Runs a verb that takes something (a write), and returns once it is taken: its local
    /// events raised, and with persistence on disk.
    ///
    /// Called from the repo's own turn (a transaction's update block), it runs at the end of that
    /// turn instead, after what the turn does with the block's result: a write made inside an
    /// update block comes after the transaction it belongs to, whichever paths they touch.
    func take(_ body: @escaping @Sendable () -> Void) {
        if isInOwnTurn { schedule(body) } else { performNow(body) }
    }

    /// Calls `done` on the callback queue once everything scheduled before it has run and the
    /// callbacks that raised have run (``Database/barrier()``).
    func barrier(_ done: @escaping @Sendable () -> Void) { schedule { self.callbackQueue.async(execute: done) } }

    // MARK: - Connection

    /// Disconnects and stays offline until ``resume()``.
    func interrupt() { schedule { self.connection.interrupt() } }

    /// Reconnects after ``interrupt()``.
    func resume() { schedule { self.connection.resume() } }

    /// Tries to connect now instead of waiting out the back-off.
    func reconnectNow() { schedule { self.connection.reconnectNow() } }

    /// Closes the connection and the store, and returns once they are closed.
    func close() { performNow { shutDown() } }

    /// The connection's status as last published, with when the server was last heard from.
    func publishedStatus() -> ConnectionStatus { connection.gauges.annotating(info.status.current) }

    /// Authenticates with `credential` (wire text; nil signs out) and keeps it for the next run.
    func setCredential(_ credential: String?) {
        schedule {
            self.connection.auth.setProvider(nil)
            self.connection.auth.set(credential.map(DatabaseToken.init(credential:)))
            self.persistCredential(credential)
        }
    }

    /// Takes credentials from `provider` from now on; none of them is kept on disk.
    func setTokenProvider(_ provider: (any DatabaseTokenProvider)?) {
        schedule {
            self.persistCredential(nil)
            self.connection.auth.setProvider(provider)
        }
    }

    // MARK: - Listeners

    /// Adds a listener (its cached data read ahead while the engine starts).
    func addEventRegistration(_ registration: ObserverRegistration, for query: QuerySpec) {
        if persistsWrites, query.path.front != ".info" { readAhead.request(query.path) }
        schedule { self.raise(self.tree(for: query.path).addEventRegistration(registration, for: query)) }
    }

    /// Removes listeners.
    func removeEventRegistrations(_ removed: [(QuerySpec, ObserverRegistration)]) {
        schedule {
            for (query, registration) in removed {
                self.raise(self.tree(for: query.path).removeEventRegistration(registration, for: query))
            }
        }
    }

    /// Keeps (or stops keeping) `query` synced in the disk cache, and saves that for the next run.
    func setKeptSynced(_ query: QuerySpec, _ keep: Bool) {
        schedule {
            guard let disk = self.disk else { return }
            disk.setKeptSynced(query, keep)
            self.changes.signal()
        }
    }

    /// Calls `body` on the queue with the keepSynced queries an earlier run saved.
    func withRestoredKeepSynced(_ body: @escaping @Sendable ([QuerySpec]) -> Void) {
        schedule { body(self.disk?.restored.keepSynced ?? []) }
    }

    /// Calls `observer` on the callback queue with every change of the connection's status,
    /// starting with the current one.
    func addStatusObserver(handle: DatabaseHandle, _ observer: @escaping @Sendable (ConnectionStatus) -> Void) {
        addObserver(\.info.status.observers, handle: handle, current: { $0.connection.status }, observer)
    }

    /// Stops a connection-status observer.
    func removeStatusObserver(handle: DatabaseHandle) { schedule { self.info.status.observers[handle] = nil } }

    /// Calls `observer` on the callback queue with the write queue after it changes, starting
    /// with the current one.
    func addPendingWritesObserver(handle: DatabaseHandle, _ observer: @escaping @Sendable ([PendingWrite]) -> Void) {
        addObserver(\.userWrites.watchers.observers, handle: handle, current: { $0.pendingWrites.snapshot }, observer)
    }

    /// Stops a write-queue observer.
    func removePendingWritesObserver(handle: DatabaseHandle) {
        schedule { self.userWrites.watchers.observers[handle] = nil }
    }

    /// Adds an observer to one of the repo's tables and tells it the current value.
    private func addObserver<Value: Sendable>(
        _ table: ReferenceWritableKeyPath<Repo, [DatabaseHandle: @Sendable (Value) -> Void]>, handle: DatabaseHandle,
        current: @escaping @Sendable (Repo) -> Value, _ observer: @escaping @Sendable (Value) -> Void
    ) {
        nonisolated(unsafe) let table = table  // key paths are immutable values
        schedule {
            self[keyPath: table][handle] = observer
            let value = current(self)
            self.callbackQueue.async { observer(value) }
        }
    }

    // MARK: - The write queue

    /// The writes not yet acknowledged, oldest first.
    func pendingWriteSnapshot() -> [PendingWrite] { performNow { pendingWrites.snapshot } }

    /// The writes the server refused, with its reasons.
    func deadLetterSnapshot() -> [DeadLetter] { performNow { pendingWrites.deadLetterSnapshot } }

    /// The bytes the queued writes' data takes now.
    func pendingWriteBytes() -> Int { performNow { pendingWrites.bytes } }

    /// Sets the write queue's bound.
    func setMaxPendingBytes(_ bytes: Int) { schedule { self.userWrites.maxBytes = bytes } }

    /// Calls `waiter` once every write made before this call has been answered.
    func waitForPendingWrites(_ waiter: @escaping @Sendable () -> Void) {
        schedule { self.userWrites.whenDrained(waiter) }
    }

    /// Sends a dead letter again, as a new write at the end of the queue.
    func resendDeadLetter(_ id: Int, completion: Completion?) {
        schedule { self.userWrites.retryDeadLetter(id, completion: completion) }
    }

    /// Forgets a dead letter.
    func discardDeadLetter(_ id: Int) { schedule { _ = self.pendingWrites.takeDeadLetter(id) } }

    // MARK: - Persistence

    /// What the disk cache holds; nil without persistence.
    func cacheReport() -> CacheReport? { performNow { disk?.cache.report() } }

    /// Why the store does not take writes now.
    func storeFailure() -> StoreFailure? { performNow { pendingWrites.unusableStore ?? disk?.store.health.current } }

    /// Empties the disk cache, and returns once it is empty.
    func clearCache() { performNow { disk?.cache.clear() } }

    // MARK: - onDisconnect and transactions

    /// Asks the server for this connection's onDisconnect operations, each judged by its rules.
    func requestOnDisconnectReport(
        _ completion: @escaping @Sendable (Result<OnDisconnectReport, DatabaseError>) -> Void
    ) {
        schedule { self.userWrites.onDisconnectReport(completion) }
    }

    /// Starts a transaction at `path`.
    func runTransaction(
        at path: Path, database: Database, update: @escaping @Sendable (MutableData) -> TransactionResult,
        completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?, applyLocally: Bool
    ) {
        schedule {
            self.transactions.start(
                path, database: database, update: update, completion: completion, applyLocally: applyLocally)
        }
    }

    /// Starts the transaction registered under `name` at `path`.
    func runTransaction(
        named name: String, at path: Path, database: Database,
        completion: (@Sendable ((any Error)?, Bool, DataSnapshot?) -> Void)?
    ) {
        schedule { self.transactions.runNamed(name, at: path, completion: completion, database: database) }
    }

    /// Registers a named transaction (those an earlier run left unfinished resume).
    func register(transaction: NamedTransaction, named name: String, database: Database) {
        schedule { self.transactions.register(name, transaction, database: database) }
    }
}
