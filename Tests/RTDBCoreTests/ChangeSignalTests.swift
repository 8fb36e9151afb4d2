import RTDBCore
import Testing

/// A change signal loses no wake-up: a waiter that looked before a change and waits after it
/// returns, however the two threads interleave, and a cancelled waiter returns too (a lost
/// wake-up is a hang, named by the time limit).
@Suite(.timeLimit(.minutes(1))) struct ChangeSignalTests {
    @Test func aChangeRacingAWaiterAlwaysWakesIt() async {
        let signal = ChangeSignal()
        for _ in 0..<5_000 {
            let seen = signal.generation
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await signal.changed(after: seen) }
                group.addTask { signal.signal() }
            }
        }
        #expect(signal.generation == 5_000)
    }

    @Test func manyWaitersAreWokenByOneChange() async {
        let signal = ChangeSignal()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { await signal.changed(after: 0) } }
            group.addTask { signal.signal() }
        }
        #expect(signal.generation == 1)
    }

    @Test func aChangeBeforeTheWaitReturnsAtOnceAndACancelledWaiterReturns() async {
        let signal = ChangeSignal()
        signal.signal()
        await signal.changed(after: 0)
        let waiter = Task { await signal.changed(after: signal.generation) }
        waiter.cancel()
        await waiter.value
        #expect(signal.generation == 1)
    }
}
