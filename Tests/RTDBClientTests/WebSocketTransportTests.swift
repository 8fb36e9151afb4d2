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
        let connection = WebSocketTransport(time: TestTime().source).connect(to: server.webSocketURL) { event in
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
        let connection = WebSocketTransport(time: TestTime().source).connect(to: server.webSocketURL) {
            events.record($0)
        }
        #expect(await events.wait { $0.contains { if case .frame = $0 { true } else { false } } }, "the hello")
        connection.close()
        #expect(await events.wait { $0.last == .closed(reason: nil) }, "\(events.all)")
        #expect(try await until(server.server.connections.changes) { server.server.connections.connections.isEmpty })
        await server.stop()
    }

    @Test func aRefusedUpgradeIsNamed() async throws {
        let server = try await TestServer.start()
        let events = Recorder<TransportEvent>()
        // Not the WebSocket endpoint: the server answers with an HTTP error, not 101.
        _ = WebSocketTransport(time: TestTime().source).connect(to: "ws://127.0.0.1:\(server.port)/elsewhere") {
            events.record($0)
        }
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

    /// The end of a connection whose server answers the upgrade with `answer`.
    private static func reason(answering answer: [UInt8]) async throws -> (reason: String?, opened: Bool) {
        let server = try await RawAnswerServer(answering: answer)
        let events = Recorder<TransportEvent>()
        _ = WebSocketTransport(time: TestTime().source).connect(to: "ws://127.0.0.1:\(server.port)/.ws") {
            events.record($0)
        }
        let ended = await events.wait { $0.contains { if case .closed = $0 { true } else { false } } }
        await server.stop()
        #expect(ended, "the connection ends: \(events.all)")
        let closes = events.all.filter { if case .closed = $0 { true } else { false } }
        #expect(closes.count == 1, "one end: \(events.all)")
        return (reason(events.all), events.all.contains(.opened))
    }

    @Test func anAnswerThatIsNotAnUpgradeIsNamed() async throws {
        let wrongKey = Array(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\r\n\r\n"
                .utf8)
        for (answer, expected) in [
            (wrongKey, "the server's WebSocket handshake is not valid"),
            (Array("SSH-2.0-OpenSSH_9.2\r\n\r\n".utf8), "the server's answer is not HTTP"),
            (Array("HTTP/1.1 101 OK\r\nUpgr\u{E9}de: websocket\r\n\r\n".utf8), "the server's answer is not HTTP"),
            (Array(repeating: UInt8(ascii: "x"), count: 20_000), "the server's answer is not HTTP (no end of its head"),
            (Array("HTTP/1.1 503 Busy\r\n\r\n".utf8), "the server did not accept the WebSocket (HTTP 503 Busy"),
            (Array("HTTP/1.1 101 Switching".utf8), "the connection closed before the server answered"),
        ] {
            let (reason, opened) = try await Self.reason(answering: answer)
            #expect(reason?.hasPrefix(expected) == true, "\(reason ?? "no reason")")
            #expect(!opened)
        }
    }

    /// Seeded random answers to the upgrade: every connection ends once, with a reason, unopened.
    @Test func randomAnswersToTheUpgradeEndTheConnectionOnce() async throws {
        var random = SeededRandom(seed: FuzzSeed.seed)
        let pieces = [
            "HTTP/1.1 ", "101", " Switching Protocols", "\r\n", "Upgrade: websocket", ":", "\r\n\r\n", "\u{0}",
        ]
        for _ in 0..<(FuzzSeed.rounds / 10) {
            var answer: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                answer +=
                    Bool.random(using: &random)
                    ? Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8)
                    : [UInt8.random(in: 0...255, using: &random)]
            }
            let (reason, opened) = try await Self.reason(answering: answer)
            #expect(reason != nil && !opened, "\(answer): \(reason ?? "no reason")")
        }
    }

    // MARK: - A hostile server

    /// One unmasked frame as a server sends it (`length` may lie).
    private static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, length: UInt64? = nil) -> [UInt8] {
        let declared = length ?? UInt64(payload.count)
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if declared < 126 {
            bytes.append(UInt8(declared))
        } else if declared < 65_536 {
            bytes += [126, UInt8(declared >> 8), UInt8(declared & 0xFF)]
        } else {
            bytes.append(127)
            bytes += (0..<8).reversed().map { UInt8((declared >> ($0 * 8)) & 0xFF) }
        }
        return bytes + payload
    }

    /// The events of one connection to a server that sends `bytes` after the upgrade, then
    /// closes: once it has ended.
    private static func events(from bytes: [UInt8], abrupt: Bool = false) async throws -> [TransportEvent] {
        let server = try await HostileWebSocketServer(sending: bytes, abrupt: abrupt)
        let events = Recorder<TransportEvent>()
        _ = WebSocketTransport(time: TestTime().source).connect(to: "ws://127.0.0.1:\(server.port)/.ws") {
            events.record($0)
        }
        let ended = await events.wait { $0.contains { if case .closed = $0 { true } else { false } } }
        await server.stop()
        #expect(ended, "the connection ends: \(events.all)")
        let all = events.all
        #expect(all.filter { if case .closed = $0 { true } else { false } }.count == 1, "one end: \(all)")
        #expect(all.last.map { if case .closed = $0 { true } else { false } } ?? false, "nothing after the end")
        return all
    }

    private static func texts(_ events: [TransportEvent]) -> [String] {
        events.compactMap { if case .frame(let text) = $0 { text } else { nil } }
    }

    private static func reason(_ events: [TransportEvent]) -> String? {
        guard case .closed(let reason)? = events.last else { return nil }
        return reason
    }

    @Test func aServerBreakingTheProtocolEndsTheConnectionWithAReason() async throws {
        let hello = Array("hello".utf8)
        for (name, bytes) in [
            ("a reserved opcode, then a message", Self.frame(0x3, hello) + Self.frame(0x1, Array("{}".utf8))),
            ("a control frame of 200 bytes", Self.frame(0x9, Array(repeating: 0x61, count: 200))),
            ("a fragmented ping", Self.frame(0x9, hello, fin: false)),
            ("a length past any limit", Self.frame(0x1, hello, length: 1 << 40)),
            ("a continuation with no start", Self.frame(0x0, hello)),
        ] {
            let events = try await Self.events(from: bytes)
            #expect(Self.texts(events).isEmpty, "\(name): \(events)")
            #expect(Self.reason(events) != nil, "\(name) is named: \(events)")
        }
    }

    @Test func aServersFragmentsBinaryFramesAndCloseAreReadAsTheProtocolSays() async throws {
        let parts = [Array(#"{"t":"d","#.utf8), Array(#""d":{"r":1,"#.utf8), Array(#""b":{"s":"ok"}}}"#.utf8)]
        let events = try await Self.events(
            from: Self.frame(0x2, [1, 2, 3]) + Self.frame(0x1, parts[0], fin: false) + Self.frame(0x9, [])
                + Self.frame(0x0, parts[1], fin: false) + Self.frame(0x0, parts[2]) + Self.frame(0x1, [0xC3, 0x28])
                + Self.frame(0x8, [0x0F, 0xA0] + Array("bye".utf8)))
        let texts = Self.texts(events)
        #expect(texts.first == #"{"t":"d","d":{"r":1,"b":{"s":"ok"}}}"#, "three fragments are one message: \(events)")
        #expect(texts.count == 2, "the binary frame is not a message; invalid UTF-8 arrives repaired: \(texts)")
        #expect(Self.reason(events)?.contains("bye") == true, "the server's reason is told: \(events)")
    }

    /// A server whose frames and FIN follow its 101 at once (one read can hold them all): the
    /// frames are read before the end. (With swift-nio's client upgrade handler, 3 rounds in 300
    /// lost them.)
    @Test func framesFollowedAtOnceByTheEndAreRead() async throws {
        for round in 0..<300 {
            let events = try await Self.events(
                from: Self.frame(0x1, Array(#"{"n":1}"#.utf8)) + Self.frame(0x1, Array(#"{"n":2}"#.utf8)), abrupt: true)
            #expect(Self.texts(events) == [#"{"n":1}"#, #"{"n":2}"#], "round \(round): \(events)")
        }
    }

    /// Seeded random bytes after the upgrade: every connection ends once, and nothing trapped.
    @Test func randomBytesFromAServerEndTheConnectionOnce() async throws {
        var random = SeededRandom(seed: FuzzSeed.seed)
        for _ in 0..<(FuzzSeed.rounds / 10) {
            let count = Int.random(in: 0...64, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if Bool.random(using: &random) { bytes = Self.frame(0x1, Array("{}".utf8)) + bytes }
            _ = try await Self.events(from: bytes)
        }
    }
}
