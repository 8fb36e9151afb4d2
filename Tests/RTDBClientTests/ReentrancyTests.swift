import Foundation
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// The API called from inside the engine's own callbacks: a transaction's update block runs on
/// the engine's queue, and what it calls must not wait for that queue.
@Suite struct ReentrancyTests {
    @Test func childByAutoIdInsideATransactionsUpdateBlockDoesNotDeadlock() async throws {
        // Offline: the update block runs at once, locally.
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        database.goOffline()
        let list = database.reference(withPath: "lists/a")
        let keys = Recorder<String>()
        list.runTransactionBlock(
            { data in
                let key = list.childByAutoId().key ?? ""
                keys.record(key)
                data.value = [key: true]
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        // Was: the block waited for the queue it runs on, and nothing ever came back.
        #expect(await keys.wait { $0.count >= 1 }, "the update block returned")
        let key = try #require(keys.last)
        #expect(PushIDGenerator.timestamp(of: key) != nil, "a push id: \(key)")
        let seen = Recorder<Bool>()
        list.observeSingleEvent(of: .value) { snapshot in seen.record(snapshot.hasChild(key)) }
        #expect(await seen.wait { $0.last == true }, "applied locally")
        database.close()
    }

    /// The calls that return a value at once (the queue, its bytes, the dead letters, the cache,
    /// the status) answered from inside an update block, which runs on the engine's queue.
    @Test func readsInsideATransactionsUpdateBlockDoNotDeadlock() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        database.persistenceDirectory = folder
        database.isPersistenceEnabled = true
        database.goOffline()
        database.reference(withPath: "queued").setValue("waits", andPriority: nil)
        let seen = Recorder<String>()
        database.reference(withPath: "counter").runTransactionBlock(
            { data in
                // Was: each of these waited (queue.sync) for the queue the block runs on.
                seen.record("queue \(!database.pendingWrites.isEmpty), \(database.pendingWriteBytes > 0)")
                seen.record("dead letters \(database.deadLetters.count)")
                seen.record("cache \(database.cacheReport() != nil)")
                seen.record("phase \(database.connectionStatus.phase.isConnected)")
                data.value = 1
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        #expect(await seen.wait { $0.count >= 4 }, "the update block returned: \(seen.all)")
        #expect(Array(seen.all.prefix(4)) == ["queue true, true", "dead letters 0", "cache true", "phase false"])
        database.close()
    }
}
