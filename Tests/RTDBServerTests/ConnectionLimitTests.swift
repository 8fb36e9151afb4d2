import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// The per-connection and per-namespace limits, each reached on a real server: the offender is
/// told, nothing it sent is lost, and others go on being served.
@Suite struct ConnectionLimitTests {
    /// How many of `messages` are `ok` answers.
    static func okAnswers(_ messages: [WireMessage]) -> Int {
        messages.filter {
            if case .response(_, .ok, _) = $0 { return true }
            return false
        }.count
    }

    @Test func aClientOverTheMessageRateIsToldAndSlowedNotCut() async throws {
        let server = try await TestServer.start(configure: { $0.limits.messagesPerSecond = 20 })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        var last = 0
        for index in 0..<40 { last = await client.send(.put(path: Path("n/\(index)"), data: 1, hash: nil)) }
        let messages = try await client.collect(until: last)
        let told = messages.contains {
            if case .control(.error(let message)) = $0 { return message.contains("more than 20 messages a second") }
            return false
        }
        #expect(told, "\(messages.prefix(3))")
        #expect(Self.okAnswers(messages) == 40, "every request answered")
        let stored = try await http("GET", "/n.json?shallow=true", port: server.port).json?.objectValue
        #expect(stored?.count == 40)
        await client.close()
        await server.stop()
    }

    @Test func aPipeliningClientWithASmallWindowLosesNothing() async throws {
        let server = try await TestServer.start(configure: { $0.limits.outstandingRequests = 2 })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        var last = 0
        for index in 0..<300 {
            last = await client.send(.put(path: Path("p/\(index)"), data: .int(Int64(index)), hash: nil))
        }
        #expect(Self.okAnswers(try await client.collect(until: last)) == 300)
        #expect(try await http("GET", "/p.json?shallow=true", port: server.port).json?.objectValue?.count == 300)
        await client.close()
        await server.stop()
    }

    @Test func aListenOverTheLimitIsRefusedByName() async throws {
        let server = try await TestServer.start(configure: { $0.limits.listensPerConnection = 3 })
        let client = WireTestClient(url: server.webSocketURL)
        _ = try await client.hello()
        for index in 0..<3 {
            let answer = try await client.call(.listen(path: Path("l/\(index)"), query: .default, tag: nil, hash: ""))
            #expect(answer.status == .ok)
        }
        let refused = try await client.call(.listen(path: Path("l/3"), query: .default, tag: nil, hash: ""))
        #expect(refused.status == .limitExceeded)
        #expect(refused.data.stringValue?.contains("holds 3 listens") == true, "\(refused.data)")
        // Dropping one makes room.
        _ = try await client.call(.unlisten(path: Path("l/0"), query: .default, tag: nil))
        #expect(try await client.call(.listen(path: Path("l/3"), query: .default, tag: nil, hash: "")).status == .ok)
        await client.close()
        await server.stop()
    }

    @Test func aSessionOverTheNamespaceLimitIsToldToComeBackLater() async throws {
        let server = try await TestServer.start(configure: { $0.limits.sessionsPerNamespace = 2 })
        let first = WireTestClient(url: server.webSocketURL)
        let second = WireTestClient(url: server.webSocketURL)
        _ = try await first.hello()
        _ = try await second.hello()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        let refusal = try await raw.read(until: "try again later")
        #expect(refusal.contains("namespace demo holds 2 sessions"))
        #expect(try await raw.readWebSocketCloseCode() == 1013)
        await raw.close()
        // Another namespace has its own count; the two sessions are still served.
        let other = WireTestClient(url: "ws://127.0.0.1:\(server.port)/.ws?v=5&ns=other")
        _ = try await other.hello()
        #expect(try await first.call(.put(path: Path("x"), data: 1, hash: nil)).status == .ok)
        for client in [first, second, other] { await client.close() }
        await server.stop()
    }
}
