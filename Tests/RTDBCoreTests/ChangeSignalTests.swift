import Foundation
import RTDBCore
import Synchronization
import Testing

/// A change signal loses no wake-up: a waiter that looked before a change and waits after it
/// returns, however the two threads interleave, and a cancelled waiter returns too (a lost
/// wake-up is a hang, named by the time limit).
@Suite(.timeLimit(.minutes(1))) struct ChangeSignalTests {
    /// The waiter runs on a thread of its own and the signaller on another, which answers each
    /// request as soon as it sees it (a spin, not a wake-up), so the signal lands anywhere in the
    /// waiter's look-then-register; neither waits on the shared pool.
    @Test func aChangeRacingAWaiterAlwaysWakesIt() async {
        let rounds = 20_000
        let signal = ChangeSignal()
        let requests = Requests()
        let signaller = Thread {
            var given = 0
            while given < rounds, !requests.ended.load(ordering: .acquiring) {
                guard requests.asked.load(ordering: .acquiring) > given else {
                    sched_yield()
                    continue
                }
                signal.signal()
                given += 1
            }
        }
        signaller.start()
        let waiter = ThreadExecutor(name: "ChangeSignalTests.waiter")
        defer {
            waiter.stop()
            requests.ended.store(true, ordering: .releasing)
        }
        await withTaskExecutorPreference(waiter) {
            for round in 0..<rounds where !Task.isCancelled {
                let seen = signal.generation
                #expect(seen == round)
                requests.asked.add(1, ordering: .releasing)
                await signal.changed(after: seen)
            }
        }
        #expect(signal.generation == rounds)
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

/// What the racing test's waiter tells the signalling thread.
private final class Requests: Sendable {
    let asked = Atomic<Int>(0)
    /// Set when the waiter is done, or was stopped by the time limit.
    let ended = Atomic<Bool>(false)
}
