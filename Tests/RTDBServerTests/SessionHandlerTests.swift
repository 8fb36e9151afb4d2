import Foundation
import RTDBCore
import RTDBServer
import RTDBTestSupport
import RTDBWire
import Testing

/// The WebSocket side of a session served from its channel's pipeline (RFC 6455 by hand, on a
/// real server): fragments, control frames, the close handshake, and what a peer that leaves
/// had already sent.
@Suite struct SessionHandlerTests {
    private static func put(_ number: Int, _ path: String, _ value: Int) -> String {
        #"{"t":"d","d":{"r":\#(number),"a":"p","b":{"p":"\#(path)","d":\#(value)}}}"#
    }

    @Test func aMessageInFragmentsIsOneRequestAndPingsBetweenThemAreAnswered() async throws {
        let server = try await TestServer.start()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        let message = Array(Self.put(1, "fragmented", 7).utf8)
        let (first, second, third) = (message[..<10], message[10..<30], message[30...])
        try await raw.sendWebSocketFrame(opcode: 0x1, payload: Array(first), fin: false)
        // A control frame may come between a message's fragments (RFC 6455 §5.4).
        try await raw.sendWebSocketFrame(opcode: 0x9, payload: Array("between".utf8))
        try await raw.sendWebSocketFrame(opcode: 0x0, payload: Array(second), fin: false)
        try await raw.sendWebSocketFrame(opcode: 0x0, payload: Array(third))
        // The pong: final, opcode 10, unmasked, the ping's payload.
        try await raw.read(untilBytes: [0x8A, 0x07] + Array("between".utf8))
        _ = try await raw.read(until: #""r":1,"b":{"s":"ok""#)
        #expect(try await http("GET", "/fragmented.json", port: server.port).json == 7)
        await raw.close()
        await server.stop()
    }

    @Test func thePeersCloseIsAnsweredAndTheConnectionEnds() async throws {
        let server = try await TestServer.start()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        try await raw.sendWebSocketFrame(opcode: 0x8, payload: [0x03, 0xE8])
        #expect(try await raw.readWebSocketCloseCode() == 1000)
        #expect(try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty })
        await raw.close()
        await server.stop()
    }

    @Test func aReservedOpcodeIsAProtocolErrorForThatConnectionOnly() async throws {
        let server = try await TestServer.start()
        let other = WireTestClient(url: server.webSocketURL)
        _ = try await other.hello()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        try await raw.sendWebSocketFrame(opcode: 0x3, payload: Array("?".utf8))
        // The server's close (1002) waits for the peer's answer: this peer gives it.
        try await raw.read(untilBytes: [0x88, 0x02, 0x03, 0xEA])
        try await raw.sendWebSocketFrame(opcode: 0x8, payload: [0x03, 0xEA])
        _ = try await raw.readToEnd()
        #expect(try await other.call(.put(path: Path("still"), data: 1, hash: nil)).status == .ok)
        await other.close()
        await server.stop()
    }

    @Test func everyRequestSentBeforeThePeerLeftIsHandled() async throws {
        // A window of one: most of these wait unread in the server when the peer goes.
        let server = try await TestServer.start(configure: { $0.limits.outstandingRequests = 1 })
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        try await Self.sendAndLeave(200, under: "left", raw)
        try await Self.expectAllHandled(200, under: "left", server)
        await raw.close()
        await server.stop()
    }

    @Test func requestsSentBeforeTheHelloAreHandledEvenIfThePeerLeavesAtOnce() async throws {
        let server = try await TestServer.start()
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        // At once after the 101, before the hello: the session is still opening (its namespace
        // is leased in a task), and these wait for it, FIN included.
        try await Self.sendAndLeave(20, under: "early", raw)
        try await Self.expectAllHandled(20, under: "early", server)
        await raw.close()
        await server.stop()
    }

    /// Sends `count` puts under `root` in one write, then a FIN: not a reset (a close with unread
    /// answers would discard what is still in flight).
    private static func sendAndLeave(_ count: Int, under root: String, _ raw: RawTCPClient) async throws {
        var bytes: [UInt8] = []
        for index in 0..<count {
            bytes += RawTCPClient.webSocketFrame(
                opcode: 0x1, payload: Array(put(index + 1, "\(root)/\(index)", index).utf8))
        }
        try await raw.write(bytes)
        try await raw.finishWriting()
    }

    /// Expects all `count` puts under `root` stored, and the session gone.
    private static func expectAllHandled(_ count: Int, under root: String, _ server: TestServer) async throws {
        let stored = Recorder<Int>()
        #expect(
            try await until(server.server.metrics.changes) {
                let found = try await http("GET", "/\(root).json?shallow=true", port: server.port).json?.objectValue
                stored.record(found?.count ?? 0)
                return found?.count == count
            }, "stored: \(stored.last ?? 0)")
        #expect(try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty })
    }
}
