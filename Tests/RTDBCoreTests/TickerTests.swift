import RTDBCore
import Testing

/// A ticker's deadlines, and what it calls late, on a clock the test moves.
@Suite struct TickerTests {
    @Test func ticksOnTimeUntilTheProcessStallsThenCountsAgainFromTheWake() async {
        let clock = ManualClock()
        let ticker = Ticker(every: .seconds(4), on: clock)
        clock.move(by: .seconds(4))
        #expect(await ticker.next() == .onTime)
        // Woken within a quarter period of the deadline (due at 8 s) is still on time.
        clock.move(by: .seconds(5))
        #expect(await ticker.next() == .onTime)
        // Nothing ran from 9 s to 22 s: the tick due at 12 s wakes 10 s late, and the ticks due
        // meanwhile (16 s, 20 s) do not follow in a burst.
        clock.stall(for: .seconds(13))
        #expect(await ticker.next() == .late(by: .seconds(10)))
        // The next is a full period from the wake.
        clock.move(by: .seconds(4))
        #expect(await ticker.next() == .onTime)
        #expect(clock.elapsed == .seconds(26))
    }

}
