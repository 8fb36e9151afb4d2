import Dispatch
import Logging
import RTDBCore
import RTDBWire
import Synchronization
import Testing

@testable import RTDBClient

/// The transaction runner alone, in an engine made by hand (``HandMadeEngine``): the server's
/// answers are given by the test.
@Suite struct TransactionRunnerTests {
    /// What the transaction's completion said.
    final class Outcome: Sendable {
        let calls = Mutex<[(error: String?, committed: Bool, value: JSONValue?)]>([])
        var completion: @Sendable ((any Error)?, Bool, DataSnapshot?) -> Void {
            { error, committed, snapshot in
                self.calls.withLock {
                    $0.append(((error as? DatabaseError)?.code.rawValue, committed, snapshot?.node.exportJSON))
                }
            }
        }
    }

    static let counter = Path("counter")
    static let increment: @Sendable (MutableData) -> TransactionResult = { data in
        data.value = ((data.value as? Int) ?? 0) + 1
        return .success(withValue: data)
    }

    /// A runner in an engine made by hand, with one transaction started: it adds one to `counter`.
    static func incrementing() -> (HandMadeEngine, TransactionRunner, Database, Outcome) {
        let host = HandMadeEngine()
        let runner = TransactionRunner(host: host)
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        runner.database = database
        let outcome = Outcome()
        runner.start(
            counter, database: database, update: increment, completion: outcome.completion, applyLocally: true)
        return (host, runner, database, outcome)
    }

    @Test func aStaleAnswerRunsItAgainOnTheServersDataUnderANewKey() throws {
        let (host, runner, database, outcome) = Self.incrementing()
        // The runner holds its database weakly, as the repo's does.
        defer { withExtendedLifetime(database) {} }
        #expect(host.puts.map(\.data) == [1])
        #expect(host.puts.first?.hash == "" && host.puts.first?.key == "\(host.userWrites.ids.instance):1.1")
        #expect(host.pendingWrites.snapshot.map(\.state) == [.inFlight])

        _ = host.serverTree.applyServerOverwrite(Self.counter, Node(trustedJSON: 5))
        runner.rerun(affectedBy: Self.counter)
        #expect(host.puts.count == 1, "a transaction on the wire is not run again until it is answered")

        host.puts[0].answer(.dataStale, .null)
        #expect(host.puts.map(\.data) == [1, 6])
        #expect(host.puts[1].hash == Node(trustedJSON: 5).hashString)
        #expect(host.puts[1].key == "\(host.userWrites.ids.instance):1.2", "every attempt is a different write")

        host.puts[1].answer(.ok, .null)
        host.callbackQueue.sync {}
        #expect(outcome.calls.withLock { $0.map(\.committed) } == [true])
        #expect(outcome.calls.withLock { $0.first?.value } == 6)
        #expect(host.pendingWrites.snapshot.isEmpty && runner.book.inFlight.records(at: Self.counter) == nil)
    }

    @Test func aSetOverItAbortsItOnceTheServerAnswers() {
        let (host, runner, database, outcome) = Self.incrementing()
        // The runner holds its database weakly, as the repo's does.
        defer { withExtendedLifetime(database) {} }
        runner.abort(overlapping: .root)
        #expect(outcome.calls.withLock { $0.isEmpty }, "sent: it waits for the answer")
        host.puts[0].answer(.dataStale, .null)
        host.callbackQueue.sync {}
        #expect(outcome.calls.withLock { $0.map(\.error) } == ["set"], "the SDKs' overriddenBySet")
        #expect(host.puts.count == 1 && host.pendingWrites.snapshot.isEmpty)
    }

    @Test func itGivesUpAfterTwentyFiveStaleAnswers() {
        let (host, _, _, outcome) = Self.incrementing()
        for attempt in 0..<TransactionRunner.maxRetries { host.puts[attempt].answer(.dataStale, .null) }
        host.callbackQueue.sync {}
        #expect(host.puts.count == TransactionRunner.maxRetries)
        #expect(outcome.calls.withLock { $0.map(\.error) } == ["maxretry"])
    }

    @Test func aNameNobodyRegisteredIsRefusedAndARegisteredOneRuns() {
        let host = HandMadeEngine()
        let runner = TransactionRunner(host: host)
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        runner.database = database
        let outcome = Outcome()
        runner.runNamed("bump", at: Self.counter, completion: outcome.completion, database: database)
        runner.register("bump", NamedTransaction(update: Self.increment, completion: nil), database: database)
        runner.runNamed("bump", at: Self.counter, completion: outcome.completion, database: database)
        host.callbackQueue.sync {}
        #expect(outcome.calls.withLock { $0.map(\.error) } == ["unknown_transaction"])
        #expect(host.puts.map(\.data) == [1])
        #expect(host.pendingWrites.snapshot.first?.transactionName == "bump", "kept under its name")
    }
}
