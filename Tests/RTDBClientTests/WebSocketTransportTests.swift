import Clocks
import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

@testable import RTDBClient

/// The client's WebSocket on swift-nio's codec, against a real server on loopback: frames sent
/// before the upgrade, a burst from another thread in order, the close handshake, a refused
/// upgrade named.
@Suite struct WebSocketTransportTests {
    private static func put(_ number: Int, _ path: String, _ value: Int) -> String {
        #"{"t":"d","d":{"r":\#(number),"a":"p","b":{"p":"\#(path)","d":\#(value)}}}"#
    }

    /// The number of the request a frame answers `ok`, if it is such an answer.
    private static func answered(_ event: TransportEvent) -> Int? {
        guard case .frame(let text) = event, case .response(let number, let status, _)? = try? WireMessage(text: text),
            status == .ok
        else { return nil }
        return number
    }

    @Test func framesSentBeforeTheUpgradeAndInABurstGoOutInOrder() async throws {
        let server = try await TestServer.start()
        let events = Recorder<TransportEvent>()
        let answers = Recorder<Int>()
        let connection = WebSocketTransport().connect(to: server.webSocketURL) { event in
            events.record(event)
            if let number = Self.answered(event) { answers.record(number) }
        }
        // At once, before the upgrade is done: they wait for it.
        for number in 1...3 { connection.send(Self.put(number, "early/\(number)", number)) }
        #expect(await answers.wait { $0 == [1, 2, 3] }, "\(events.all.prefix(6))")
        #expect(events.all.first == .opened)
        // A burst from another thread: gathered into few writes, still in order.
        await Task.detached {
            for number in 4...1_003 { connection.send(Self.put(number, "burst", number)) }
        }.value
        #expect(await answers.wait { $0.count == 1_003 })
        #expect(answers.all == Array(1...1_003))
        #expect(try await http("GET", "/burst.json", port: server.port).json == 1_003)
        connection.close()
        #expect(await events.wait { $0.last == .closed(reason: nil) })
        await server.stop()
    }

    /// The close frame goes out and the server's answer ends the connection: with time standing
    /// still, the grace period cannot be what closed it.
    @Test func closeIsAHandshakeTheServerAnswers() async throws {
        let server = try await TestServer.start()
        let events = Recorder<TransportEvent>()
        let timers = TestClock<Duration>()
        let connection = WebSocketTransport(timers: timers).connect(to: server.webSocketURL) { events.record($0) }
        #expect(await events.wait { $0.contains { if case .frame = $0 { true } else { false } } }, "the hello")
        connection.close()
        #expect(await events.wait { $0.last == .closed(reason: nil) }, "\(events.all)")
        #expect(try await eventually { server.server.connections.connections.isEmpty })
        await server.stop()
    }

    @Test func aRefusedUpgradeIsNamed() async throws {
        let server = try await TestServer.start()
        let events = Recorder<TransportEvent>()
        // Not the WebSocket endpoint: the server answers with an HTTP error, not 101.
        _ = WebSocketTransport().connect(to: "ws://127.0.0.1:\(server.port)/elsewhere") { events.record($0) }
        #expect(
            await events.wait {
                guard case .closed(let reason?)? = $0.last else { return false }
                return reason.hasPrefix("the server did not accept the WebSocket (HTTP 4")
            }, "\(events.all)")
        #expect(!events.all.contains(.opened))
        await server.stop()
    }

    @Test func anAddressThatIsNotAWebSocketIsNamed() async throws {
        let events = Recorder<TransportEvent>()
        _ = WebSocketTransport().connect(to: "ftp://127.0.0.1:1/x") { events.record($0) }
        #expect(await events.wait { $0 == [.closed(reason: "the address ftp://127.0.0.1:1/x is not ws:// or wss://")] })
    }
}
