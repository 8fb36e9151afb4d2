import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

@Suite struct WebSocketProtocolTests {
    @Test func helloThenStatsThenOrderedResponses() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        let hello = try await client.hello()
        #expect(hello.host == "127.0.0.1:\(server.port)", "the Host header with its port")
        #expect(hello.version == "5")
        #expect(!hello.sessionID.isEmpty)
        #expect(hello.timestamp > 1_600_000_000_000)
        let stats = try await client.call(.stats(["sdk.js.9-8-1": 1]))
        #expect(stats.status == .ok)
        // Pipelined requests are answered exactly once each, in order.
        var numbers: [Int] = []
        for index in 0..<20 {
            numbers.append(await client.send(.put(path: Path("n/\(index)"), data: .int(Int64(index)), hash: nil)))
        }
        var answered: [Int] = []
        while answered.count < numbers.count {
            if case .response(let number, .ok, _) = try await client.next() { answered.append(number) }
        }
        #expect(answered == numbers)
        await client.close()
        await server.stop()
    }

    @Test func listenGetsInitialDataBeforeOkAndOwnEchoBeforeAck() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        _ = try await client.call(.put(path: Path("rooms/r1"), data: ["name": "lobby"], hash: nil))
        let listen = try await client.call(.listen(path: Path("rooms/r1"), query: .default, tag: nil, hash: ""))
        #expect(listen.status == .ok)
        #expect(listen.data == [:], "a listen ok carries an object")
        #expect(listen.before == [.push(.data(path: Path("rooms/r1"), data: ["name": "lobby"], tag: nil))])

        let write = try await client.call(
            .put(path: Path("rooms/r1/topic"), data: ["x": [".sv": "timestamp"]], hash: nil))
        #expect(write.status == .ok)
        guard case .push(.data(let path, let data, nil))? = write.before.first else {
            Issue.record("no echo before the ack: \(write.before)")
            return
        }
        #expect(path == Path("rooms/r1/topic"))
        #expect(data["x"]?.intValue ?? 0 > 1_600_000_000_000, "server timestamp resolved")

        let merge = try await client.call(.merge(path: Path("rooms/r1"), data: ["a/b": 1, "name": nil]))
        #expect(merge.before == [.push(.merge(path: Path("rooms/r1"), data: ["a/b": 1, "name": nil], tag: nil))])
        let get = try await client.call(.get(path: Path("rooms/r1"), query: .default))
        #expect(get.data["a"] == ["b": 1])
        #expect(get.data["name"] == nil)

        // Matching hash: the client already has the data, no push.
        let current = try Node(json: get.data)
        let again = try await client.call(
            .listen(path: Path("rooms/r1"), query: .default, tag: nil, hash: current.hashString))
        #expect(again.before.isEmpty)
        await client.close()
        await server.stop()
    }

    @Test func otherClientsSeeWritesAboveAndBelowTheirListens() async throws {
        let server = try await TestServer.start()
        let writer = WireTestClient(url: server.webSocketURL)
        let reader = WireTestClient(url: server.webSocketURL)
        _ = try await writer.hello()
        _ = try await reader.hello()
        _ = try await reader.call(.listen(path: Path("a/b"), query: .default, tag: nil, hash: ""))
        _ = try await writer.call(.put(path: Path("a/b/c"), data: 1, hash: nil))
        #expect(try await reader.next() == .push(.data(path: Path("a/b/c"), data: 1, tag: nil)))
        _ = try await writer.call(.put(path: Path("a"), data: ["b": ["d": 2], "x": 3], hash: nil))
        #expect(
            try await reader.next() == .push(.data(path: Path("a/b"), data: ["d": 2], tag: nil)),
            "only the listened part")
        _ = try await writer.call(.put(path: Path("a/x"), data: 4, hash: nil))
        _ = try await writer.call(.put(path: Path("a/b/d"), data: 5, hash: nil))
        #expect(
            try await reader.next() == .push(.data(path: Path("a/b/d"), data: 5, tag: nil)),
            "sibling writes are not sent")
        await writer.close()
        await reader.close()
        await server.stop()
    }

    @Test func taggedQueryWindowFollowsTheData() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        _ = try await client.call(.put(path: Path("scores"), data: ["a": 10, "b": 20, "c": 30, "d": 40], hash: nil))
        let query = QueryParams(index: .value, limit: 2, viewFrom: .right)
        let listen = try await client.call(.listen(path: Path("scores"), query: query, tag: 7, hash: ""))
        #expect(listen.before == [.push(.data(path: Path("scores"), data: ["c": 30, "d": 40], tag: 7))])

        // A new top score enters; "c" leaves the window.
        let write = try await client.call(.put(path: Path("scores/e"), data: 50, hash: nil))
        #expect(write.before == [.push(.merge(path: Path("scores"), data: ["c": nil, "e": 50], tag: 7))])
        // The top score leaves: the server supplies the replacement child.
        let removal = try await client.call(.put(path: Path("scores/e"), data: nil, hash: nil))
        #expect(removal.before == [.push(.merge(path: Path("scores"), data: ["c": 30, "e": nil], tag: 7))])
        // Outside the window: nothing.
        let outside = try await client.call(.put(path: Path("scores/a"), data: 11, hash: nil))
        #expect(outside.before.isEmpty)
        // A value change inside the window.
        let change = try await client.call(.put(path: Path("scores/d"), data: 45, hash: nil))
        #expect(change.before == [.push(.merge(path: Path("scores"), data: ["d": 45], tag: 7))])
        // Unlisten: no more pushes.
        _ = try await client.call(.unlisten(path: Path("scores"), query: query, tag: 7))
        let after = try await client.call(.put(path: Path("scores/z"), data: 99, hash: nil))
        #expect(after.before.isEmpty)
        await client.close()
        await server.stop()
    }

    @Test func transactionsCompareHashes() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        // First attempt with no data: "" matches an empty location.
        #expect(try await client.call(.put(path: Path("counter"), data: 1, hash: "")).status == .ok)
        let stale = try await client.call(.put(path: Path("counter"), data: 2, hash: ""))
        #expect(stale.status == .dataStale)
        #expect(stale.data.stringValue != nil, "error data is a string")
        let hashOfOne = Node(.number(1)).hashString
        #expect(try await client.call(.put(path: Path("counter"), data: 2, hash: hashOfOne)).status == .ok)
        #expect(try await client.call(.get(path: Path("counter"), query: .default)).data == 2)
        await client.close()
        await server.stop()
    }

    @Test func onDisconnectRunsWhenTheConnectionCloses() async throws {
        let server = try await TestServer.start()
        let watcher = WireTestClient(url: server.webSocketURL)
        _ = try await watcher.hello()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        _ = try await client.call(.put(path: Path("users/morgan/connections/c1"), data: true, hash: nil))
        #expect(
            try await client.call(.onDisconnectPut(path: Path("users/morgan/connections/c1"), data: nil)).status == .ok
        )
        #expect(
            try await client.call(.onDisconnectPut(path: Path("users/morgan/lastOnline"), data: [".sv": "timestamp"]))
                .status == .ok)
        #expect(
            try await client.call(.onDisconnectMerge(path: Path("users/morgan"), data: ["status": "away", "x": 1]))
                .status == .ok)
        #expect(try await client.call(.onDisconnectCancel(path: Path("users/morgan/x"))).status == .ok)
        let info = server.server.connections.connections.first { $0.onDisconnectCount > 0 }
        #expect(info?.onDisconnectCount == 3)
        await client.close()
        let fired = try await until(server.server.metrics.changes) {
            let state = try await watcher.call(.get(path: Path("users/morgan"), query: .default)).data
            return state["connections"] == nil && state["lastOnline"]?.intValue != nil
        }
        #expect(fired)
        let state = try await watcher.call(.get(path: Path("users/morgan"), query: .default)).data
        #expect(state["status"] == "away")
        #expect(state["x"] == nil, "cancelled")
        await watcher.close()
        await server.stop()
    }

    @Test func largeMessagesTravelInFragmentsBothWays() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let big = String(repeating: "é😀x", count: 20_000)
        #expect(try await client.call(.put(path: Path("big"), data: .string(big), hash: nil)).status == .ok)
        #expect(try await client.call(.get(path: Path("big"), query: .default)).data == .string(big))
        await client.close()
        await server.stop()
    }
}
