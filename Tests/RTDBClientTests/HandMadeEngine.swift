import Dispatch
import Logging
import RTDBCore
import RTDBWire

@testable import RTDBClient

/// An engine made by hand for the repo's parts tested alone: a sync tree and a write queue in
/// memory, and a way to the server that keeps what it would send for the test to answer.
final class HandMadeEngine: TransactionHost {
    /// A write the engine would have sent.
    struct Put {
        var kind: OutstandingPut.Kind
        var path: Path
        /// Its data, when made as JSON (a transaction's, a new write's).
        var data: JSONValue?
        var hash: String?
        var key: String?
        var answer: (WireStatus, JSONValue) -> Void
    }

    let serverTree = SyncTree()
    lazy var userWrites: UserWrites = {
        var random = SeededRandom(seed: 7)
        return UserWrites(host: self, ids: WriteIDs(using: &random), maxBytes: 1 << 20)
    }()
    var pendingWrites: PendingWriteQueue { userWrites.queue }
    let callbackQueue = DispatchQueue(label: "test.callbacks")
    let logger = Logger(label: "test")
    let changes = ChangeSignal()
    let clock: WallClock = { UnixTime(millisecondsSince1970: 1_700_000_000_000) }
    var serverTime: UnixTime { clock() }
    /// The writes sent, in order.
    var puts: [Put] = []
    /// Where user writes were made (each aborts the transactions it overlaps).
    var writesMade: [Path] = []
    /// The onDisconnect requests sent, in order.
    var onDisconnects: [(request: ClientRequest, answer: (WireStatus, JSONValue) -> Void)] = []

    func raise(_ events: [SyncEvent]) {}
    func schedule(_ body: @escaping @Sendable () -> Void) { body() }
    func complete(_ callback: (@Sendable (DatabaseError?) -> Void)?, error: DatabaseError?) { callback?(error) }
    func resolveLocally(_ node: Node, at path: Path, now: UnixTime?) -> Node { node }
    func userWriteMade(at path: Path) { writesMade.append(path) }

    func put(
        _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String?, idempotencyKey: String?,
        onSend: (() -> Void)?, onComplete: @escaping (WireStatus, JSONValue) -> Void
    ) {
        var json: JSONValue?
        if case .json(let make) = data { json = make() }
        onSend?()
        puts.append(Put(kind: kind, path: path, data: json, hash: hash, key: idempotencyKey, answer: onComplete))
    }

    func sendOnDisconnect(_ request: ClientRequest, onComplete: @escaping (WireStatus, JSONValue) -> Void) {
        onDisconnects.append((request, onComplete))
    }

    func onDisconnectDryRun(onComplete: @escaping (WireStatus, JSONValue) -> Void) {}

    /// What the local view shows at `path`.
    func shown(_ path: String) -> JSONValue { serverTree.calcCompleteEventCache(Path(path)).exportJSON }
}
