import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// The `ik` extension: a write re-sent under the same idempotency key is applied once.
@Suite struct IdempotencyTests {
    @Test func aWriteSentTwiceUnderOneKeyIsAppliedOnce() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start(dataDirectory: directory)
        let port = server.port
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let increment: JSONValue = [".sv": ["increment": 1]]
        for _ in 0..<3 {
            let reply = try await client.call(
                .put(path: Path("counter"), data: increment, hash: nil, idempotencyKey: "device-1:7"))
            #expect(reply.status == .ok, "a duplicate is acknowledged like the original")
        }
        let merge = ClientRequest.merge(path: Path("stats"), data: ["hits": increment], idempotencyKey: "device-1:8")
        #expect(try await client.call(merge).status == .ok)
        #expect(try await client.call(merge).status == .ok)
        // A different key, or no key at all, is a new write.
        _ = try await client.call(.put(path: Path("counter"), data: increment, hash: nil, idempotencyKey: "device-2:7"))
        _ = try await client.call(.put(path: Path("counter"), data: increment, hash: nil))
        #expect(try await client.call(.get(path: Path("counter"), query: .default)).data == 3)
        #expect(try await client.call(.get(path: Path("stats/hits"), query: .default)).data == 1)
        await client.close()
        await server.stop()

        // The keys are durable with the writes: after a restart the duplicate is still recognised.
        let restarted = try await TestServer.start(dataDirectory: directory, configure: { $0.port = port })
        let again = WireTestClient(url: restarted.webSocketURL)
        _ = try await again.hello()
        _ = try await again.call(.put(path: Path("counter"), data: increment, hash: nil, idempotencyKey: "device-1:7"))
        #expect(try await again.call(.get(path: Path("counter"), query: .default)).data == 3)
        await again.close()
        await restarted.stop()
    }

    @Test func aTransactionPutAppliedOnceIsAcknowledgedWhenSentAgain() async throws {
        // The first attempt succeeds and its ack is lost; the re-sent attempt carries a hash that no
        // longer matches, but the key shows it was applied: ok, not datastale.
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let put = ClientRequest.put(path: Path("n"), data: 1, hash: Node.empty.hashString, idempotencyKey: "d:1.1")
        #expect(try await client.call(put).status == .ok)
        #expect(try await client.call(put).status == .ok)
        let stale = ClientRequest.put(path: Path("n"), data: 1, hash: Node.empty.hashString, idempotencyKey: "d:1.2")
        #expect(try await client.call(stale).status == .dataStale)
        await client.close()
        await server.stop()
    }

    @Test func aMalformedKeyIsRefusedByName() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        for bad: JSONValue in [5, "", .string(String(repeating: "k", count: 200))] {
            let number = await client.sendRaw(action: "p", body: ["p": "/x", "d": 1, "ik": bad])
            let reply = try await client.response(to: number)
            #expect(reply.status == .invalidRequest)
            #expect(reply.data.stringValue?.contains("'ik'") == true)
        }
        #expect(try await client.call(.get(path: Path("x"), query: .default)).data == nil)
        await client.close()
        await server.stop()
    }
}
