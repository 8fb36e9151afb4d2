import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// The pending-write queue's states and `waitForPendingWrites`, against the server's engine in
/// this process (the real framing, no socket), on the test's time.
@Suite struct PendingWritesTests {
    @Test func waitingCoversTheWritesMadeBeforeNotAfter() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let transport = InterceptingTransport(inner: server.transport)
        let client = Database(
            url: "http://in-process?ns=demo", transport: transport, time: time.source)
        try await client.reference(withPath: "warmup").setValue(true)
        // Writes to /stuck never leave the client: they stay in flight.
        transport.setRule { $0.contains(#""p":"/stuck""#) ? .swallow : .forward }
        let events = Recorder<String>()
        client.reference(withPath: "first").setValue(1, andPriority: nil)
        client.waitForPendingWrites { events.record("before") }
        client.reference(withPath: "stuck").setValue(2, andPriority: nil)
        client.waitForPendingWrites { events.record("after") }
        try await client.serverRoundTrip()
        #expect(events.all == ["before"])
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
        await client.waitForPendingWrites()
        await client.barrier()
        #expect(events.all == ["before", "after"])
        #expect(client.pendingWrites.isEmpty)
        client.close()
        await server.stop()
    }

    /// Was: a transaction made offline showed `in flight` (plain writes said `queued`).
    @Test func aTransactionMadeOfflineIsQueuedUntilItIsSent() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let client = server.client(time)
        try await client.reference(withPath: "counter").setValue(1)
        client.goOffline()
        client.reference(withPath: "counter").runTransactionBlock(
            { data in
                data.value = ((data.value as? Int) ?? 0) + 1
                return .success(withValue: data)
            }, andCompletionBlock: nil)
        await client.barrier()
        #expect(client.pendingWrites.count == 1)
        #expect(client.pendingWrites.first?.state == .queued, "\(client.pendingWrites)")
        #expect(client.pendingWrites.first?.attempts == 0)
        client.goOnline()
        await client.waitForPendingWrites()
        let reader = server.client(time)
        #expect(try await reader.reference(withPath: "counter").getData().value as? Int == 2, "the server has it")
        reader.close()
        client.close()
        await server.stop()
    }
}
