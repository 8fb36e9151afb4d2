import Dispatch
import Logging
import RTDBCore
import RTDBWire
import Synchronization
import Testing

@testable import RTDBClient

/// The app's writes alone, in an engine made by hand: a sync tree and a write queue in memory, a
/// host that keeps what it would send, and the server's answers given by the test.
@Suite struct UserWritesTests {
    /// The engine around the writes: records the puts instead of sending them.
    final class Host: UserWritesHost {
        struct Put {
            var kind: OutstandingPut.Kind
            var path: Path
            var key: String?
            var answer: (WireStatus, JSONValue) -> Void
        }

        let serverTree = SyncTree()
        lazy var writes: UserWrites = {
            var random = SeededRandom(seed: 11)
            return UserWrites(host: self, ids: WriteIDs(using: &random), maxBytes: 1 << 20)
        }()
        let callbackQueue = DispatchQueue(label: "test.callbacks")
        let logger = Logger(label: "test")
        let changes = ChangeSignal()
        let clock: WallClock = { UnixTime(millisecondsSince1970: 1_700_000_000_000) }
        var serverTime: UnixTime { clock() }
        var puts: [Put] = []
        var writesMade: [Path] = []
        var onDisconnects: [(request: ClientRequest, answer: (WireStatus, JSONValue) -> Void)] = []

        func raise(_ events: [SyncEvent]) {}
        func schedule(_ body: @escaping @Sendable () -> Void) { body() }
        func complete(_ callback: (@Sendable (DatabaseError?) -> Void)?, error: DatabaseError?) { callback?(error) }
        func resolveLocally(_ node: Node, at path: Path, now: UnixTime?) -> Node { node }
        func userWriteMade(at path: Path) { writesMade.append(path) }
        func sendOnDisconnect(_ request: ClientRequest, onComplete: @escaping (WireStatus, JSONValue) -> Void) {
            onDisconnects.append((request, onComplete))
        }
        func onDisconnectDryRun(onComplete: @escaping (WireStatus, JSONValue) -> Void) {}

        func put(
            _ kind: OutstandingPut.Kind, path: Path, data: PutData, hash: String?, idempotencyKey: String?,
            onSend: (() -> Void)?, onComplete: @escaping (WireStatus, JSONValue) -> Void
        ) {
            onSend?()
            puts.append(Put(kind: kind, path: path, key: idempotencyKey, answer: onComplete))
        }

        /// What the local view shows at `path`.
        func shown(_ path: String) -> JSONValue { serverTree.calcCompleteEventCache(Path(path)).exportJSON }
    }

    /// What completion blocks were told, in order (nil: success).
    final class Answers: Sendable {
        let codes = Mutex<[String?]>([])
        var completion: @Sendable (DatabaseError?) -> Void {
            { error in self.codes.withLock { $0.append(error?.code.rawValue) } }
        }
        var all: [String?] { codes.withLock { $0 } }
    }

    @Test func aSetIsShownQueuedAndSentUnderItsKeyAndLeavesTheQueueWhenAcknowledged() throws {
        let host = Host()
        let answers = Answers()
        host.writes.set(Path("a"), json: 1, completion: answers.completion)
        #expect(host.shown("a") == 1)
        #expect(host.writes.queue.snapshot.map(\.id) == [1])
        #expect(host.writesMade == [Path("a")], "transactions under it hear of it")
        let put = try #require(host.puts.first)
        #expect(put.kind == .set && put.key == "\(host.writes.ids.instance):1")
        put.answer(.ok, .null)
        #expect(host.writes.queue.snapshot.isEmpty && answers.all == [nil])
        #expect(host.serverTree.calcCompleteEventCache(Path("a")).isEmpty, "the server's data is shown from now on")
    }

    @Test func aWriteRefusedForGoodIsADeadLetterAndSentAgainAsANewWrite() throws {
        let host = Host()
        let answers = Answers()
        host.writes.update(Path("u"), children: [("x", 1), ("y/z", 2)], completion: answers.completion)
        try #require(host.puts.count == 1)
        #expect(host.puts[0].kind == .merge)
        host.puts[0].answer(.permissionDenied, "permission_denied")
        #expect(host.writes.queue.deadLetterSnapshot.map(\.write.id) == [1])
        host.writes.retryDeadLetter(1, completion: answers.completion)
        #expect(host.writes.queue.deadLetterSnapshot.isEmpty)
        #expect(host.puts.count == 2 && host.puts[1].key == "\(host.writes.ids.instance):2", "a new write")
        host.writes.retryDeadLetter(1, completion: answers.completion)
        #expect(answers.all == ["permission_denied", "not_found"])
    }

    @Test func aRefusalForNowDropsTheWriteWithoutADeadLetter() throws {
        let host = Host()
        let answers = Answers()
        host.writes.set(Path("a"), json: 1, completion: answers.completion)
        try #require(host.puts.count == 1)
        host.puts[0].answer(.expiredToken, "expired")
        #expect(host.writes.queue.snapshot.isEmpty && host.writes.queue.deadLetterSnapshot.isEmpty)
        #expect(host.shown("a") == .null && answers.all == ["expired_token"])
    }

    @Test func aWriteOverTheQueuesBoundOrInvalidGoesNowhere() {
        let host = Host()
        let answers = Answers()
        host.writes.maxBytes = 8
        host.writes.set(Path("big"), json: .string(String(repeating: "x", count: 64)), completion: answers.completion)
        host.writes.set(Path("bad"), json: ["a.b": 1], completion: answers.completion)
        #expect(host.puts.isEmpty && host.writes.queue.snapshot.isEmpty)
        #expect(host.shown("big") == .null && host.shown("bad") == .null)
        #expect(answers.all.count == 2 && !answers.all.contains(nil))
        #expect(host.writesMade.isEmpty)
    }

    @Test func aDrainWaiterIsToldOnceTheWritesBeforeItAreAnsweredNotLaterOnes() {
        let host = Host()
        let told = Mutex(0)
        host.writes.set(Path("a"), json: 1, completion: nil)
        host.writes.whenDrained { told.withLock { $0 += 1 } }
        host.writes.set(Path("b"), json: 2, completion: nil)
        host.callbackQueue.sync {}
        #expect(told.withLock { $0 } == 0, "write 1 is not answered")
        host.puts[0].answer(.ok, .null)
        host.callbackQueue.sync {}
        #expect(told.withLock { $0 } == 1, "write 2, made after it asked, does not hold it")
    }

    @Test func onDisconnectWritesAreKnownOnlyOnceTheServerHasThemAndRunOnce() throws {
        let host = Host()
        let answers = Answers()
        host.writes.onDisconnectSet(Path("status"), json: "offline", completion: answers.completion)
        host.writes.onDisconnectUpdate(Path("seen"), children: [("a", 1)], completion: answers.completion)
        host.writes.onDisconnectSet(Path("refused"), json: true, completion: answers.completion)
        host.writes.onDisconnectSet(Path("bad"), json: ["a/b": 1], completion: answers.completion)
        try #require(host.onDisconnects.count == 3, "the invalid one is not sent")
        host.onDisconnects[0].answer(.ok, .null)
        host.onDisconnects[1].answer(.ok, .null)
        host.onDisconnects[2].answer(.permissionDenied, "permission_denied")
        #expect(answers.all.count == 4 && answers.all[1...] == [nil, nil, "permission_denied"])
        #expect(host.writes.onDisconnect.registrations.map(\.path) == [Path("status"), Path("seen")])
        host.writes.runOnDisconnectLocally()
        #expect(host.writes.onDisconnect.registrations.isEmpty)
        host.writes.onDisconnectSet(Path("status"), json: "away", completion: nil)
        host.onDisconnects[3].answer(.ok, .null)
        host.writes.onDisconnectCancel(Path("status"), completion: nil)
        host.onDisconnects[4].answer(.ok, .null)
        #expect(host.writes.onDisconnect.takeWrites().isEmpty, "cancelled: the next drop shows nothing")
    }
}
