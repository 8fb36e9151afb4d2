import Dispatch
import Logging
import RTDBCore
import RTDBWire

/// What the transaction runner needs of the engine it runs in: what the app's writes need (the
/// sync tree and its events, the way to the server, the clocks), and the app's writes themselves.
///
/// ``Repo`` is the host; each member is one it has for its own writes.
protocol TransactionHost: UserWritesHost {
    /// The app's writes: the queue, its bound, the numbering of writes and their answers.
    var userWrites: UserWrites { get }
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
