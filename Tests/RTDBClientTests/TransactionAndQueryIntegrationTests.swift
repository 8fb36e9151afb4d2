import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// Transactions and queries against the namespace's engine in this process (InProcessServer: the
/// real framing, no socket, the test's clock).
@Suite struct TransactionAndQueryIntegrationTests {
    @Test func contendedTransactionsFromTwoInstancesSumCorrectly() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let first = server.client(time)
        let second = server.client(time)
        let committed = Recorder<Bool>()
        let perClient = 15
        for database in [first, second] {
            let counter = database.reference(withPath: "counter")
            for _ in 0..<perClient {
                counter.runTransactionBlock(
                    { data in
                        data.value = ((data.value as? NSNumber)?.intValue ?? 0) + 1
                        return .success(withValue: data)
                    },
                    andCompletionBlock: { error, didCommit, _ in
                        committed.record(error == nil && didCommit)
                    })
            }
        }
        // Every transaction answered: both clients' writes are acknowledged, then their callbacks.
        await first.waitForPendingWrites()
        await second.waitForPendingWrites()
        await first.barrier()
        await second.barrier()
        #expect(committed.all.count == 2 * perClient)
        #expect(committed.all.allSatisfy { $0 })
        let total = try await first.reference(withPath: "counter").getData().value as? NSNumber
        #expect(total?.intValue == 2 * perClient)
        first.close()
        second.close()
        await server.stop()
    }

    @Test func abortedTransactionsLeaveTheDataAlone() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let client = server.client(time)
        let ref = client.reference(withPath: "kept")
        try await ref.setValue("original")
        let result = try await ref.runTransactionBlock { _ in .abort() }
        #expect(!result.committed)
        #expect(try await ref.getData().value as? String == "original")
        let invalid = Recorder<String>()
        ref.runTransactionBlock(
            { data in
                data.value = ["bad.key": 1]
                return .success(withValue: data)
            },
            andCompletionBlock: { error, committed, _ in invalid.record("\(committed) \(error.map { "\($0)" } ?? "")") }
        )
        await client.barrier()
        #expect(invalid.last?.contains("bad.key") == true, "refused locally: \(invalid.all)")
        client.close()
        await server.stop()
    }

    @Test func limitQueryWindowFollowsServerChanges() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let writer = server.client(time)
        let reader = server.client(time)
        let scores = writer.reference(withPath: "scores")
        try await scores.setValue(["a": 10, "b": 20, "c": 30, "d": 40])
        let window = Recorder<[String]>()
        let events = Recorder<String>()
        let query = reader.reference(withPath: "scores").queryOrderedByValue().queryLimited(toLast: 2)
        query.observe(.value) { snapshot in window.record(snapshot.children.map(\.key)) }
        query.observe(.childAdded) { events.record("+\($0.key)") }
        query.observe(.childRemoved) { events.record("-\($0.key)") }
        // Each write acknowledged to the writer, then a round trip of the reader's: the server sent
        // the reader what changed before it answered.
        try await reader.serverRoundTrip()
        #expect(window.last == ["c", "d"])
        try await scores.child("e").setValue(50)
        try await reader.serverRoundTrip()
        #expect(window.last == ["d", "e"])
        try await scores.child("e").setValue(nil)
        try await reader.serverRoundTrip()
        #expect(window.last == ["c", "d"], "the server refills the window")
        try await scores.child("a").setValue(99)
        try await reader.serverRoundTrip()
        #expect(window.last == ["d", "a"])
        #expect(events.all.prefix(2).sorted() == ["+c", "+d"])
        #expect(events.all.contains("-c") && events.all.contains("+e") && events.all.contains("+a"))
        writer.close()
        reader.close()
        await server.stop()
    }
}

@Suite struct OfflineTransactionTests {
    @Test func aTransactionStartedOfflineRunsOnReconnect() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let client = server.client(time)
        let other = server.client(time)
        try await other.reference(withPath: "likes").setValue(41)
        let local = Recorder<Int>()
        client.reference(withPath: "likes").observe(.value) { snapshot in
            if let value = snapshot.value as? NSNumber { local.record(value.intValue) }
        }
        try await client.serverRoundTrip()
        #expect(local.last == 41)
        client.goOffline()
        try await other.reference(withPath: "likes").setValue(100)  // unseen by the offline client
        let result = Recorder<String>()
        client.reference(withPath: "likes").runTransactionBlock(
            { data in
                data.value = ((data.value as? NSNumber)?.intValue ?? 0) + 1
                return .success(withValue: data)
            },
            andCompletionBlock: { error, committed, snapshot in
                result.record("\(error == nil) \(committed) \((snapshot?.value as? NSNumber)?.intValue ?? -1)")
            })
        await client.barrier()
        #expect(local.last == 42, "runs at once on cached data")
        #expect(result.all.isEmpty)
        client.goOnline()
        await client.waitForPendingWrites()
        await client.barrier()
        #expect(result.last == "true true 101", "reruns on the server's data")
        #expect(try await other.reference(withPath: "likes").getData().value as? NSNumber == 101)
        client.close()
        other.close()
        await server.stop()
    }
}
