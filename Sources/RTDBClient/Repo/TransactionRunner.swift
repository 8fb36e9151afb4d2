import Dispatch
import Logging
import RTDBCore
import RTDBWire

/// What the transaction runner needs of the engine it runs in: the sync tree and its events,
/// the app's writes (their queue, numbering and answers), the way to the server, and the clocks.
///
/// ``Repo`` is the host; each member is one it has for its own writes.
protocol TransactionHost: AnyObject {
    /// The tree of server data and local writes.
    var serverTree: SyncTree { get }
    /// The app's writes: the queue, its bound, the numbering of writes and their answers.
    var userWrites: UserWrites { get }
    /// Where the app's callbacks run.
    var callbackQueue: DispatchQueue { get }
    /// Where it logs.
    var logger: Logger { get }
    /// The server's time as estimated here.
    var serverTime: UnixTime { get }
    /// The wall clock.
    var clock: WallClock { get }
    /// Runs the events' callbacks on the callback queue, in order.
    func raise(_ events: [SyncEvent])
    /// Sends a write to the server, after the restored writes not handed over yet.
    func put(
        _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String?, idempotencyKey: String?,
        onSend: (() -> Void)?, onComplete: @escaping (WireStatus, JSONValue) -> Void)
}

/// Runs the repo's transactions (docs/client-engine.md#transactions): each run locally on the
/// best data known, sent as a hash-conditional set, run again on `datastale` (25 times at
/// most) or when server data under it changes, aborted by a user write over it; named ones are
/// kept on disk and resume after a restart.
///
/// One of the repo's parts, used only on its queue; it owns the transactions' bookkeeping
/// (``TransactionBook``) and reaches the rest of the engine through its ``TransactionHost``.
final class TransactionRunner {
    /// How often a transaction runs again on `datastale` before it fails with `maxretries`.
    static let maxRetries = 25
    /// The engine it runs in, which owns it; a request's answer holds the host (`[self, host]`),
    /// as the repo's own requests hold the repo.
    unowned let host: any TransactionHost
    /// The transactions in flight, and the named ones.
    var book = TransactionBook()
    /// The database the engine serves: what reruns and aborts the engine starts (server data
    /// changed, a user write) make their snapshots with; set once, as the engine is made.
    weak var database: Database?

    /// A runner for `host`'s transactions.
    init(host: any TransactionHost) { self.host = host }

    /// Forgets every transaction (the engine shuts down).
    func removeAll() { book = TransactionBook() }
}
