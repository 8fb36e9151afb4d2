import NIOCore
import NIOEmbedded
import RTDBWire
import Testing

@testable import RTDBServer

/// The request window as a handler, in an `EmbeddedChannel` with nothing else: the namespace's
/// side (leaving the window) is played by the test.
@Suite struct RequestWindowHandlerTests {
    /// What the handler let in, and what it told of reading.
    private final class Seen {
        var admitted: [Int] = []
        var paused: [Bool] = []
        var reads = 0
    }

    /// Counts the reads that reach the head of the pipeline.
    private final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        let seen: Seen
        init(_ seen: Seen) { self.seen = seen }
        func read(context: ChannelHandlerContext) {
            seen.reads += 1
            context.read()
        }
    }

    private func channel(window size: Int) throws -> (EmbeddedChannel, RequestWindow, Seen) {
        let seen = Seen()
        let window = RequestWindow(size: size)
        let handler = RequestWindowHandler(
            window: window, admit: { seen.admitted.append($0.number) }, paused: { seen.paused.append($0) })
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([ReadCounter(seen), handler])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, window, seen)
    }

    private func request(_ number: Int) -> SessionRequest {
        SessionRequest(number: number, request: .success(.stats(["c": 1])))
    }

    @Test func aFullWindowStopsReadingAndEachPlaceLetsTheNextInInOrder() throws {
        let (channel, window, seen) = try channel(window: 2)
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        for number in 1...5 { try channel.writeInbound(request(number)) }
        #expect(seen.admitted == [1, 2] && seen.paused == [true])
        let reads = seen.reads
        channel.read()
        #expect(seen.reads == reads, "reading waits for the window")

        window.leave()
        channel.embeddedEventLoop.run()
        #expect(seen.admitted == [1, 2, 3], "one place, one request: the rest still wait")
        #expect(seen.paused == [true])
        window.leave(2)
        channel.embeddedEventLoop.run()
        #expect(seen.admitted == [1, 2, 3, 4, 5] && seen.paused == [true, false])
        #expect(seen.reads == reads + 1, "the read asked for meanwhile goes on")
    }

    @Test func whatWaitedGoesOnInOrderWhenTheConnectionCloses() throws {
        let (channel, window, seen) = try channel(window: 1)
        for number in 1...4 { try channel.writeInbound(request(number)) }
        #expect(seen.admitted == [1])
        _ = try channel.finish(acceptAlreadyClosed: true)
        #expect(seen.admitted == [1, 2, 3, 4] && seen.paused == [true, false])
        window.leave()
        channel.embeddedEventLoop.run()
        #expect(seen.admitted == [1, 2, 3, 4], "a place freed after the close lets nothing in twice")
    }
}
