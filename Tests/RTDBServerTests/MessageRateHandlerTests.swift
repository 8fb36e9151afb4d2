import NIOCore
import NIOEmbedded
import NIOWebSocket
import RTDBCore
import Testing

@testable import RTDBServer

/// A session's message rate, in an `EmbeddedChannel` with nothing else: its clock and its waits
/// are the test's.
@Suite struct MessageRateHandlerTests {
    /// The handler's world, moved by hand.
    private final class World {
        var now = UnixTime(millisecondsSince1970: 1_700_000_000_000)
        var scheduled: [(wait: Duration, resume: () -> Void)] = []
        var told = 0
        var pauses: [Bool] = []
    }

    /// A channel whose reads are counted (`read()` reaching the head).
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = WebSocketFrame
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    private func channel(perSecond: Int) throws -> (EmbeddedChannel, World, ReadCounter) {
        let world = World()
        let counter = ReadCounter()
        let handler = MessageRateHandler(
            perSecond: perSecond, now: { world.now }, schedule: { world.scheduled.append(($0, $1)) },
            hooks: MessageRateHandler.Hooks(firstThrottle: { world.told += 1 }, paused: { world.pauses.append($0) }))
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([counter, handler])
        return (channel, world, counter)
    }

    private func texts(_ channel: EmbeddedChannel) throws -> [String] {
        var found: [String] = []
        while let message = try channel.readInbound(as: PeerMessage.self) {
            if case .text(let text) = message { found.append(text) }
        }
        return found
    }

    @Test func aPeerOverItsRateIsReadAgainOnlyWhenItsDebtIsPaid() throws {
        let (channel, world, counter) = try channel(perSecond: 2)
        for index in 0..<5 { try channel.writeInbound(PeerMessage.text("m\(index)")) }
        // Two fit the bucket; the third goes over: it passes, then reading pauses.
        #expect(try texts(channel) == ["m0", "m1", "m2"])
        #expect(world.told == 1 && world.pauses == [true])
        #expect(world.scheduled.map(\.wait) == [.milliseconds(500)], "one message of debt at 2 a second")
        channel.read()
        #expect(counter.reads == 0, "no read while paused")
        // The debt paid: the waiting messages go on, each spending the budget, so m3 goes over
        // again and m4 waits for the next payment; the peer is told only once.
        world.now = world.now + .milliseconds(500)
        world.scheduled.removeFirst().resume()
        #expect(try texts(channel) == ["m3"])
        #expect(world.told == 1 && world.pauses == [true, false, true])
        world.now = world.now + .milliseconds(500)
        world.scheduled.removeFirst().resume()
        #expect(try texts(channel) == ["m4"])
        #expect(counter.reads == 0, "still over: m4 spent what the wait paid")
        world.now = world.now + .seconds(1)
        world.scheduled.removeFirst().resume()
        #expect(counter.reads == 1, "the read asked for while paused goes on")
        #expect(world.scheduled.isEmpty)
    }

    @Test func whatWasReadGoesOnWhenThePeerLeaves() throws {
        let (channel, world, _) = try channel(perSecond: 1)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        for index in 0..<4 { try channel.writeInbound(PeerMessage.text("m\(index)")) }
        try channel.writeInbound(PeerMessage.binary)
        #expect(try texts(channel) == ["m0", "m1"])
        try channel.close().wait()
        #expect(try texts(channel) == ["m2", "m3"], "in order, with no wait")
        #expect(world.scheduled.count == 1, "the one wait, never run")
    }
}
