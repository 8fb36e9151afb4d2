import NIOCore
import NIOEmbedded
import RTDBCore
import RTDBWire
import Testing

@testable import RTDBServer

/// A live session's messages taken apart into requests, the handler alone in an
/// `EmbeddedChannel`: what it passes on, what it tells the client, and when it ends the session.
@Suite struct MessageAssemblyHandlerTests {
    /// What the handler told the session.
    private final class Told {
        var problems: [String] = []
        var ended = 0
        var closing = false
    }

    private func channel(maxWriteBytes: Int = 1 << 20) throws -> (EmbeddedChannel, Told, Outlet) {
        let told = Told()
        let outlet = Outlet()
        let messages = InboundMessages(
            configuration: ServerConfiguration(maxWebSocketWriteBytes: maxWriteBytes),
            clock: { UnixTime(millisecondsSince1970: 1_700_000_000_000) })
        let handler = MessageAssemblyHandler(
            messages: messages, outlet: outlet,
            hooks: MessageAssemblyHandler.Hooks(
                tell: { told.problems.append($0) }, end: { told.ended += 1 }, isClosing: { told.closing }))
        return (EmbeddedChannel(handler: handler), told, outlet)
    }

    private static func put(_ number: Int) -> String {
        #"{"t":"d","d":{"r":\#(number),"a":"p","b":{"p":"a","d":\#(number)}}}"#
    }

    @Test func aRequestPassesOnAndOneInPartsOnceItIsWhole() throws {
        let (channel, told, _) = try channel()
        try channel.writeInbound(PeerMessage.text(Self.put(1)))
        #expect(try channel.readInbound(as: SessionRequest.self)?.number == 1)
        let whole = Self.put(2)
        let cut = whole.index(whole.startIndex, offsetBy: 20)
        for part in ["2", String(whole[..<cut]), String(whole[cut...])] {
            try channel.writeInbound(PeerMessage.text(part))
        }
        #expect(try channel.readInbound(as: SessionRequest.self)?.number == 2)
        #expect(try channel.readInbound(as: SessionRequest.self) == nil, "one request, not three")
        #expect(told.problems.isEmpty && told.ended == 0)
    }

    @Test func whatIsNotARequestIsToldAndNotPassedOn() throws {
        let (channel, told, _) = try channel()
        try channel.writeInbound(PeerMessage.binary)
        try channel.writeInbound(PeerMessage.text(#"{"t":"d","d":"#))
        #expect(try channel.readInbound(as: SessionRequest.self) == nil)
        #expect(told.problems.count == 2 && told.problems[0].contains("binary"))
        #expect(told.ended == 0, "a malformed message is told, the session goes on")
    }

    @Test func aMessageOverTheLimitInPartsEndsTheSession() throws {
        let (channel, told, _) = try channel(maxWriteBytes: 16)
        try channel.writeInbound(PeerMessage.text("3"))
        try channel.writeInbound(PeerMessage.text(String(repeating: "x", count: 40)))
        #expect(try channel.readInbound(as: SessionRequest.self) == nil)
        #expect(told.ended == 1 && told.problems.first?.contains("exceeds the limit") == true)
    }

    @Test func nothingIsTakenWhileTheConnectionCloses() throws {
        let (channel, told, _) = try channel()
        told.closing = true
        try channel.writeInbound(PeerMessage.text(Self.put(1)))
        try channel.writeInbound(PeerMessage.binary)
        #expect(try channel.readInbound(as: SessionRequest.self) == nil && told.problems.isEmpty)
    }

    @Test func aPingIsAnsweredWithTheServersTime() async throws {
        let (channel, _, outlet) = try channel()
        try channel.writeInbound(PeerMessage.text(#"{"t":"c","d":{"t":"p","d":{}}}"#))
        #expect(try channel.readInbound(as: SessionRequest.self) == nil)
        let sent = await outlet.nextBatch() ?? []
        #expect(sent == [.wire(ControlMessage.pongText(serverTime: 1_700_000_000_000))])
    }
}
