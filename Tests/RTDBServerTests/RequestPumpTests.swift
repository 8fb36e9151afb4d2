import RTDBCore
import RTDBWire
import Synchronization
import Testing

@testable import RTDBServer

/// A session's pump calls on once its requests are handled: at once when none is on its way,
/// which lets a closing session end from its event loop with no task
/// (``WebSocketSession/close(_:)``), else only after them.
@Suite struct RequestPumpTests {
    static func request(_ number: Int) -> SessionRequest {
        SessionRequest(number: number, request: .success(.get(path: Path("p"), query: .default)))
    }

    @Test func aPumpWithABatchOnItsWayCallsOnOnlyOnceItIsHandled() async {
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let handled = Mutex<[Int]>([])
        let pump = RequestPump { batch in
            var gate = gate.makeAsyncIterator()
            _ = await gate.next()
            handled.withLock { $0 += batch.map(\.number) }
        }
        pump.append(Self.request(1))
        let (told, teller) = AsyncStream.makeStream(of: [Int].self)
        pump.finish { teller.yield(handled.withLock { $0 }) }
        pump.append(Self.request(2))
        opener.yield()
        var iterator = told.makeAsyncIterator()
        #expect(await iterator.next() == [1], "called on after the batch, and what came after the finish dropped")
    }

    @Test func anIdlePumpCallsOnAtOnceAndTakesNoMore() async {
        let handled = Mutex<[Int]>([])
        let pump = RequestPump { batch in handled.withLock { $0 += batch.map(\.number) } }
        pump.append(Self.request(1))
        await pump.finish()
        let called = Mutex(false)
        pump.finish { called.withLock { $0 = true } }
        #expect(called.withLock { $0 }, "on this thread, before finish returned")
        pump.append(Self.request(2))
        await pump.finish()
        #expect(handled.withLock { $0 } == [1])
    }
}
