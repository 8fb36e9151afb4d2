import Dispatch
import Logging
import RTDBCore
import RTDBWire
import Synchronization
import Testing

@testable import RTDBClient

/// The app's writes alone, in an engine made by hand (``HandMadeEngine``): the server's answers
/// are given by the test.
@Suite struct UserWritesTests {
    /// What completion blocks were told, in order (nil: success).
    final class Answers: Sendable {
        let codes = Mutex<[String?]>([])
        var completion: @Sendable (DatabaseError?) -> Void {
            { error in self.codes.withLock { $0.append(error?.code.rawValue) } }
        }
        var all: [String?] { codes.withLock { $0 } }
    }

    @Test func aSetIsShownQueuedAndSentUnderItsKeyAndLeavesTheQueueWhenAcknowledged() throws {
        let host = HandMadeEngine()
        let answers = Answers()
        host.userWrites.set(Path("a"), json: 1, completion: answers.completion)
        #expect(host.shown("a") == 1)
        #expect(host.userWrites.queue.snapshot.map(\.id) == [1])
        #expect(host.writesMade == [Path("a")], "transactions under it hear of it")
        let put = try #require(host.puts.first)
        #expect(put.kind == .set && put.key == "\(host.userWrites.ids.instance):1")
        put.answer(.ok, .null)
        #expect(host.userWrites.queue.snapshot.isEmpty && answers.all == [nil])
        #expect(host.serverTree.calcCompleteEventCache(Path("a")).isEmpty, "the server's data is shown from now on")
    }

    @Test func aWriteRefusedForGoodIsADeadLetterAndSentAgainAsANewWrite() throws {
        let host = HandMadeEngine()
        let answers = Answers()
        host.userWrites.update(Path("u"), children: [("x", 1), ("y/z", 2)], completion: answers.completion)
        try #require(host.puts.count == 1)
        #expect(host.puts[0].kind == .merge)
        host.puts[0].answer(.permissionDenied, "permission_denied")
        #expect(host.userWrites.queue.deadLetterSnapshot.map(\.write.id) == [1])
        host.userWrites.retryDeadLetter(1, completion: answers.completion)
        #expect(host.userWrites.queue.deadLetterSnapshot.isEmpty)
        #expect(host.puts.count == 2 && host.puts[1].key == "\(host.userWrites.ids.instance):2", "a new write")
        host.userWrites.retryDeadLetter(1, completion: answers.completion)
        #expect(answers.all == ["permission_denied", "not_found"])
    }

    @Test func aRefusalForNowDropsTheWriteWithoutADeadLetter() throws {
        let host = HandMadeEngine()
        let answers = Answers()
        host.userWrites.set(Path("a"), json: 1, completion: answers.completion)
        try #require(host.puts.count == 1)
        host.puts[0].answer(.expiredToken, "expired")
        #expect(host.userWrites.queue.snapshot.isEmpty && host.userWrites.queue.deadLetterSnapshot.isEmpty)
        #expect(host.shown("a") == .null && answers.all == ["expired_token"])
    }

    @Test func aWriteOverTheQueuesBoundOrInvalidGoesNowhere() {
        let host = HandMadeEngine()
        let answers = Answers()
        host.userWrites.maxBytes = 8
        host.userWrites.set(
            Path("big"), json: .string(String(repeating: "x", count: 64)), completion: answers.completion)
        host.userWrites.set(Path("bad"), json: ["a.b": 1], completion: answers.completion)
        #expect(host.puts.isEmpty && host.userWrites.queue.snapshot.isEmpty)
        #expect(host.shown("big") == .null && host.shown("bad") == .null)
        #expect(answers.all.count == 2 && !answers.all.contains(nil))
        #expect(host.writesMade.isEmpty)
    }

    @Test func aDrainWaiterIsToldOnceTheWritesBeforeItAreAnsweredNotLaterOnes() {
        let host = HandMadeEngine()
        let told = Mutex(0)
        host.userWrites.set(Path("a"), json: 1, completion: nil)
        host.userWrites.whenDrained { told.withLock { $0 += 1 } }
        host.userWrites.set(Path("b"), json: 2, completion: nil)
        host.callbackQueue.sync {}
        #expect(told.withLock { $0 } == 0, "write 1 is not answered")
        host.puts[0].answer(.ok, .null)
        host.callbackQueue.sync {}
        #expect(told.withLock { $0 } == 1, "write 2, made after it asked, does not hold it")
    }

    @Test func onDisconnectWritesAreKnownOnlyOnceTheServerHasThemAndRunOnce() throws {
        let host = HandMadeEngine()
        let answers = Answers()
        host.userWrites.onDisconnectSet(Path("status"), json: "offline", completion: answers.completion)
        host.userWrites.onDisconnectUpdate(Path("seen"), children: [("a", 1)], completion: answers.completion)
        host.userWrites.onDisconnectSet(Path("refused"), json: true, completion: answers.completion)
        host.userWrites.onDisconnectSet(Path("bad"), json: ["a/b": 1], completion: answers.completion)
        try #require(host.onDisconnects.count == 3, "the invalid one is not sent")
        host.onDisconnects[0].answer(.ok, .null)
        host.onDisconnects[1].answer(.ok, .null)
        host.onDisconnects[2].answer(.permissionDenied, "permission_denied")
        #expect(answers.all.count == 4 && answers.all[1...] == [nil, nil, "permission_denied"])
        #expect(host.userWrites.onDisconnect.registrations.map(\.path) == [Path("status"), Path("seen")])
        host.userWrites.runOnDisconnectLocally()
        #expect(host.userWrites.onDisconnect.registrations.isEmpty)
        host.userWrites.onDisconnectSet(Path("status"), json: "away", completion: nil)
        host.onDisconnects[3].answer(.ok, .null)
        host.userWrites.onDisconnectCancel(Path("status"), completion: nil)
        host.onDisconnects[4].answer(.ok, .null)
        #expect(host.userWrites.onDisconnect.takeWrites().isEmpty, "cancelled: the next drop shows nothing")
    }
}
