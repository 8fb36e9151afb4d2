import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

@Suite struct BadInputTests {
    @Test func malformedMessagesGetAnErrorAndTheConnectionGoesOn() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        client.sendFrame("this is not json")
        guard case .control(.error(let message)) = try await client.next() else {
            Issue.record("no error for malformed JSON")
            return
        }
        #expect(message.contains("invalid JSON"))
        client.sendFrame(#"{"t":"d","d":{"r":"x"}}"#)
        guard case .control(.error) = try await client.next() else {
            Issue.record("no error for a malformed envelope")
            return
        }
        client.sendFrame("0")  // keepalive: ignored
        #expect(try await client.call(.stats([:])).status == .ok, "the connection still works")
        await client.close()
        await server.stop()
    }

    @Test func invalidRequestsAreRefusedOneByOne() async throws {
        let server = try await TestServer.start()
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        _ = try await client.call(.put(path: Path("kept"), data: "safe", hash: nil))

        func raw(_ action: String, _ body: JSONValue) async throws -> (WireStatus, JSONValue) {
            let number = Int.random(in: 1_000...1_000_000)
            client.sendFrame(WireMessage.request(number: number, action: action, body: body).text)
            for message in try await client.collect(until: number) {
                if case .response(number, let status, let data) = message { return (status, data) }
            }
            throw TestFailure("no response")
        }
        let unknown = try await raw("zz", [:])
        #expect(unknown.0 == .unknownAction)
        #expect(unknown.1 == "unknown action 'zz'")
        #expect(try await raw("p", ["p": "/a/b.c", "d": 1]).0 == .invalidPath)
        #expect(try await raw("p", ["p": "/a", "d": ["bad#key": 1]]).0 == .invalidPath)
        #expect(try await raw("p", ["p": "/.info/connected", "d": true]).0 == .permissionDenied)
        #expect(try await raw("p", ["p": "/a", "d": [".value": 1, "x": 2]]).0 == .invalidData)
        #expect(try await raw("p", ["p": "/a", "d": ["t": [".sv": "later"]]]).0 == .invalidData)
        #expect(try await raw("m", ["p": "/a", "d": ["x": 1, "x/y": 2]]).0 == .invalidPath)
        #expect(try await raw("q", ["p": "/a", "q": ["l": -1], "t": 1]).0 == .invalidQuery)
        var deep: JSONValue = 1
        for _ in 0..<40 { deep = ["k": deep] }
        #expect(try await raw("p", ["p": "/a", "d": deep]).0 == .invalidPath)
        let longString = JSONValue.string(String(repeating: "x", count: 10 * 1024 * 1024 + 1))
        let tooBig = try await client.call(.put(path: Path("big"), data: longString, hash: nil))
        #expect(tooBig.status == .tooBig)
        #expect(try await client.call(.get(path: Path("kept"), query: .default)).data == "safe")
        await client.close()
        await server.stop()
    }

    /// Was: both writes acknowledged, then every reader got `{"taps":inf}`, which is not JSON.
    @Test func anIncrementPastTheLargestDoubleIsRefused() async throws {
        let server = try await TestServer.start()
        #expect(try await http("PUT", "/counters/u1/taps.json", port: server.port, body: "1e308").status == 200)
        let rest = try await http(
            "PUT", "/counters/u1/taps.json", port: server.port, body: #"{".sv": {"increment": 1e308}}"#)
        #expect(rest.status == 400)
        #expect(rest.json?["error"]?.stringValue?.contains("infinite") == true, "\(rest.body)")
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let increment: JSONValue = [".sv": ["increment": .double(-1e308)]]
        #expect(try await client.call(.put(path: Path("counters/u1/down"), data: -1e308, hash: nil)).status == .ok)
        let put = try await client.call(.put(path: Path("counters/u1/down"), data: increment, hash: nil))
        #expect(put.status == .invalidData)
        let merge = try await client.call(.merge(path: Path("counters/u1"), data: ["taps": increment, "x": 1]))
        #expect(merge.status == .ok, "-1e308 + 1e308 is 0: finite")
        let overflow = try await client.call(
            .merge(path: Path("counters/u1"), data: ["down": increment, "y": 1]))
        #expect(overflow.status == .invalidData)
        // Nothing of a refused update is applied, and what readers get parses.
        let read = try await http("GET", "/counters.json", port: server.port)
        #expect(read.json == ["u1": ["down": .double(-1e308), "taps": 0, "x": 1]], "\(read.body)")
        await client.close()
        await server.stop()
    }

    @Test func writesOverTheLimitGetTooBig() async throws {
        // A 1 MiB write limit exercises the same path as Firebase's 16 MB one at a fraction of the cost.
        let server = try await TestServer.start(configure: { $0.maxWebSocketWriteBytes = 1 << 20 })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        let huge = JSONValue.object(
            .init(
                uniqueKeysWithValues: (0..<3).map {
                    (CodeUnitString("k\($0)"), .string(String(repeating: "y", count: 512 * 1024)))
                }))
        let overLimit = try await client.call(.put(path: Path("huge"), data: huge, hash: nil))
        #expect(overLimit.status == .tooBig)
        #expect(overLimit.data.stringValue?.contains("limit") == true)
        #expect(try await client.call(.stats([:])).status == .ok, "the connection goes on")
        await client.close()
        await server.stop()
    }

    @Test func anOversizedFrameClosesOnlyThatConnection() async throws {
        let server = try await TestServer.start(configure: { $0.maxFrameBytes = 64 * 1024 })
        let victim = WireTestClient(url: server.webSocketURL)
        let bystander = WireTestClient(url: server.webSocketURL)
        _ = try await victim.hello()
        _ = try await bystander.hello()
        victim.sendFrame(
            WireMessage.request(
                1, ClientRequest.put(path: Path("x"), data: .string(String(repeating: "z", count: 100_000)), hash: nil)
            ).text)
        await #expect(throws: (any Error).self) {
            while true { _ = try await victim.next(within: 5) }
        }
        #expect(try await bystander.call(.put(path: Path("still"), data: "alive", hash: nil)).status == .ok)
        await victim.close()
        await bystander.close()
        await server.stop()
    }
}
