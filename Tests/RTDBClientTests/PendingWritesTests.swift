import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The pending-write queue's states and `waitForPendingWrites`, against a real server.
@Suite struct PendingWritesTests {
    @Test func waitingCoversTheWritesMadeBeforeNotAfter() async throws {
        let server = try await TestServer.start()
        let transport = InterceptingTransport()
        let client = Database(url: "http://127.0.0.1:\(server.port)?ns=demo", transport: transport)
        try await client.reference(withPath: "warmup").setValue(true)
        // Writes to /stuck never leave the client: they stay in flight.
        transport.setRule { $0.contains(#""p":"/stuck""#) ? .swallow : .forward }
        let events = Recorder<String>()
        client.reference(withPath: "first").setValue(1, andPriority: nil)
        client.waitForPendingWrites { events.record("before") }
        client.reference(withPath: "stuck").setValue(2, andPriority: nil)
        client.waitForPendingWrites { events.record("after") }
        #expect(try await eventually { events.all == ["before"] })
        // A later write's answer, then the engine's queue and the callbacks: "after" stays.
        try await client.reference(withPath: "later").setValue(3)
        await client.barrier()
        #expect(events.all == ["before"], "the write that never gets an answer holds back only later waiters")
        let stuck = try #require(client.pendingWrites.first)
        #expect(stuck.path == "/stuck")
        #expect(stuck.state == .inFlight)
        #expect(stuck.attempts == 1)
        // Once the link lets it through (after a reconnect), the later waiter goes too.
        transport.setRule { _ in .forward }
        client.goOffline()
        #expect(client.pendingWrites.first?.state == .queued)
        client.goOnline()
        #expect(try await eventually { events.all == ["before", "after"] })
        #expect(client.pendingWrites.isEmpty)
        client.close()
        await server.stop()
    }

    /// Was: a transaction made offline showed `in flight` (plain writes said `queued`).
    @Test func aTransactionMadeOfflineIsQueuedUntilItIsSent() async throws {
        let server = try await TestServer.start()
        let client = Database(url: "http://127.0.0.1:\(server.port)?ns=demo")
        try await client.reference(withPath: "counter").setValue(1)
        client.goOffline()
        client.reference(withPath: "counter").runTransactionBlock(
            { data in
                data.value = ((data.value as? Int) ?? 0) + 1
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        #expect(try await eventually { client.pendingWrites.count == 1 })
        await client.barrier()
        #expect(client.pendingWrites.first?.state == .queued, "\(client.pendingWrites)")
        #expect(client.pendingWrites.first?.attempts == 0)
        client.goOnline()
        await client.waitForPendingWrites()
        #expect(try await http("GET", "/counter.json", port: server.port).json == 2)
        client.close()
        await server.stop()
    }
}
