import RTDBCore
import RTDBWire
import Synchronization
import Testing

@testable import RTDBServer

/// A session's pump says whether its requests are all handled, which lets a closing session end
/// from its event loop with no task (``WebSocketSession/close(_:)``): only an idle pump may.
@Suite struct RequestPumpTests {
    static func request(_ number: Int) -> SessionRequest {
        SessionRequest(number: number, request: .success(.get(path: Path("p"), query: .default)))
    }

    @Test func aPumpHandingRequestsOverIsNotIdleUntilTheyAreHandled() async {
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let handled = Mutex<[Int]>([])
        let pump = RequestPump { batch in
            var gate = gate.makeAsyncIterator()
            _ = await gate.next()
            handled.withLock { $0 += batch.map(\.number) }
        }
        pump.append(Self.request(1))
        #expect(!pump.finishIfIdle(), "a batch is on its way")
        pump.append(Self.request(2))
        opener.yield()
        await pump.finish()
        #expect(handled.withLock { $0 } == [1], "what came after the finish is dropped, what came before handled")
    }

    @Test func anIdlePumpFinishesAtOnceAndTakesNoMore() async {
        let handled = Mutex<[Int]>([])
        let pump = RequestPump { batch in handled.withLock { $0 += batch.map(\.number) } }
        pump.append(Self.request(1))
        await pump.finish()
        #expect(pump.finishIfIdle(), "every request is handled")
        pump.append(Self.request(2))
        #expect(pump.finishIfIdle())
        await pump.finish()
        #expect(handled.withLock { $0 } == [1])
    }
}
