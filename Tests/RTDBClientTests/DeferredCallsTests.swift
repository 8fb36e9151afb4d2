import Foundation
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// What the API does when called from inside the engine's own turn, and from event callbacks.
///
/// A write or a transaction made in a transaction's update block (the engine's own turn) runs
/// at the end of that turn, after the transaction it belongs to; a read answers; from a
/// callback, a write is taken before it returns. Offline, so that nothing but the engine's
/// queue orders them.
@Suite struct DeferredCallsTests {
    @Test func writesFromAnUpdateBlockRunAtTheEndOfItsTurn() async throws {
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        database.goOffline()
        let root = database.reference()
        // The order the local results are raised in: the transaction's, then its block's writes.
        let seen = Recorder<String>()
        for path in ["counter", "a"] {
            root.child(path).observe(.value) { snapshot in
                if snapshot.exists() { seen.record(path) }
            }
        }
        root.child("c").setValue("to be removed", andPriority: nil)
        let inside = Recorder<Int>()
        root.child("counter").runTransactionBlock(
            { data in
                root.child("a").setValue(1, andPriority: nil)
                root.child("b").updateChildValues(["x": 1], withCompletionBlock: nil)
                root.child("c").removeValue { _, _ in }
                root.child("list").childByAutoId().setValue(true, andPriority: nil)
                // Not yet taken: they wait for the end of this turn.
                inside.record(database.pendingWrites.count)
                data.value = 1
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        await database.barrier()
        #expect(inside.all == [2], "only the earlier write and the transaction were queued while the block ran")
        // Queued in order: the earlier write, the transaction, then the block's writes.
        let queued = database.pendingWrites.map { "\($0.kind) \($0.path)" }
        #expect(queued.count == 6, "\(queued)")
        #expect(
            Array(queued.prefix(5)) == ["set /c", "transaction /counter", "set /a", "update /b", "remove /c"],
            "\(queued)")
        #expect(queued.last?.hasPrefix("set /list/") == true, "\(queued)")
        #expect(await seen.wait { $0.count >= 2 })
        #expect(seen.all == ["counter", "a"], "the transaction's result was raised first")
        database.close()
    }

    @Test func aNestedTransactionAndAReadFromAnUpdateBlockRunAfterIt() async throws {
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        database.goOffline()
        let root = database.reference()
        root.child("a").setValue(5, andPriority: nil)
        let order = Recorder<String>()
        root.child("outer").runTransactionBlock(
            { data in
                order.record("outer begins")
                root.child("inner").runTransactionBlock(
                    { inner in
                        order.record("inner")
                        inner.value = ((inner.value as? Int) ?? 0) + 1
                        return .success(withValue: inner)
                    }, andCompletionBlock: nil)
                root.child("a").observeSingleEvent(of: .value) { snapshot in
                    order.record("read \(snapshot.value as? Int ?? -1)")
                }
                order.record("outer ends")
                data.value = 1
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        #expect(await order.wait { $0.count >= 4 }, "\(order.all)")
        #expect(Array(order.all.prefix(3)) == ["outer begins", "outer ends", "inner"], "\(order.all)")
        #expect(order.all.contains("read 5"), "\(order.all)")
        #expect(order.all.filter { $0 == "inner" }.count == 1, "the inner block ran once: \(order.all)")
        database.close()
    }

    @Test func callsFromAnEventCallbackAreTakenBeforeTheyReturn() async throws {
        let database = Database(url: "http://127.0.0.1:9?ns=demo")
        database.goOffline()
        let echo = database.reference(withPath: "echo")
        let answered = Recorder<String>()
        database.reference(withPath: "trigger").observe(.value) { snapshot in
            guard snapshot.value as? Int == 1 else { return }
            echo.child("a").setValue(1, andPriority: nil)
            echo.updateChildValues(["b": 2], withCompletionBlock: nil)
            echo.child("c").removeValue { _, _ in }
            echo.child("list").childByAutoId().setValue(true, andPriority: nil)
            echo.child("n").runTransactionBlock(
                { data in
                    data.value = ((data.value as? Int) ?? 0) + 1
                    return .success(withValue: data)
                }, andCompletionBlock: nil)
            // Each write above returned taken: the queue holds them now.
            answered.record("queued \(database.pendingWrites.map { "\($0.kind) \($0.path)" }.suffix(5))")
            echo.child("a").observeSingleEvent(of: .value) { snapshot in
                answered.record("read \(snapshot.value as? Int ?? -1)")
            }
        }
        echo.child("c").setValue("to be removed", andPriority: nil)
        database.reference(withPath: "trigger").setValue(1, andPriority: nil)
        #expect(await answered.wait { $0.count >= 2 }, "\(answered.all)")
        let queued = try #require(answered.all.first)
        #expect(
            queued.hasPrefix(#"queued ["set /echo/a", "update /echo", "remove /echo/c", "set /echo/list/"#), "\(queued)"
        )
        #expect(answered.all.dropFirst().first == "read 1", "\(answered.all)")
        await database.barrier()
        #expect(database.pendingWrites.last.map { "\($0.kind) \($0.path)" } == "transaction /echo/n")
        database.close()
    }
}
