import Foundation
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// The server's hello is timed when it arrives, not when the engine's queue comes to it.
///
/// A restart connects while it restores its queue, and that wait is no part of the round trip
/// or of the clock skew the hello measures (`.info/serverTimeOffset`). Time moves by hand.
@Suite struct HelloTimingTests {
    /// A transport that connects when told to, and tells when a frame has reached the client.
    final class HeldTransport: Transport {
        let inner: any Transport
        let connectAsked = AsyncStream<Void>.makeStream()
        let frameArrived = AsyncStream<Void>.makeStream()
        private let request = Mutex<(url: String, onEvent: @Sendable (TransportEvent) -> Void)?>(nil)
        fileprivate let live = Mutex<(any TransportConnection)?>(nil)

        init(inner: any Transport) { self.inner = inner }

        func connect(to url: String, onEvent: @escaping @Sendable (TransportEvent) -> Void) -> any TransportConnection {
            request.withLock { $0 = (url, onEvent) }
            connectAsked.continuation.yield()
            return Forwarding(transport: self)
        }

        /// Makes the connection asked for.
        func release() {
            guard let (url, onEvent) = request.withLock({ $0 }) else { return }
            let arrived = frameArrived.continuation
            let connection = inner.connect(to: url) { event in
                onEvent(event)
                if case .frame = event { arrived.yield() }
            }
            live.withLock { $0 = connection }
        }

        private struct Forwarding: TransportConnection {
            let transport: HeldTransport
            func send(_ frame: String) { transport.live.withLock { $0 }?.send(frame) }
            func close() { transport.live.withLock { $0 }?.close() }
        }
    }

    @Test func theHelloIsTimedWhenItArrivesNotWhenTheQueueTakesIt() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let transport = HeldTransport(inner: server.transport)
        let database = Database(
            url: "http://in-process?ns=demo", transport: transport, time: time.source)
        // Every status, the hello's first: a ping answered after it measures the round trip anew.
        let statuses = Recorder<ConnectionStatus>()
        database.observeConnectionStatus { statuses.record($0) }
        let repo = database.repo
        var asked = transport.connectAsked.stream.makeAsyncIterator()
        _ = await asked.next()
        // The engine's queue is held (as by a long restore) before the connection is made.
        let gate = DispatchSemaphore(value: 0)
        repo.engineQueue.async { gate.wait() }
        transport.release()
        var frames = transport.frameArrived.stream.makeAsyncIterator()
        _ = await frames.next()
        await time.advance(by: .seconds(5))
        gate.signal()
        await database.barrier()

        let status = try #require(statuses.all.first { $0.phase.isConnected }, "\(statuses.all)")
        let roundTrip = try #require(status.lastRoundTrip)
        #expect(roundTrip < .seconds(1), "the round trip is the network's, not the queue's wait: \(roundTrip)")
        let offset = abs(status.serverTimeOffset.inMilliseconds)
        #expect(offset < 1_000, "the clocks agree; the wait is no skew: \(status.serverTimeOffset)")
        database.close()
        await server.stop()
    }
}
