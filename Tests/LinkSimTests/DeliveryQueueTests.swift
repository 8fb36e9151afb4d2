import RTDBCore
import Testing

@testable import LinkSim

/// The link's timing rules, with time passed in: no sockets, no clock.
@Suite struct DeliveryQueueTests {
    private static let ms: UInt64 = 1_000_000

    @Test func latencyDelaysEveryItemByTheSameAmount() {
        var queue = DeliveryQueue<Int>()
        var random = SeededRandom(seed: 1)
        let conditions = LinkConditions(latency: .milliseconds(50))
        #expect(queue.enqueue(1, size: 10, now: 0, conditions: conditions, random: &random) == 50 * Self.ms)
        #expect(queue.enqueue(2, size: 10, now: 5 * Self.ms, conditions: conditions, random: &random) == 55 * Self.ms)
        #expect(queue.heldBytes == 20)
        #expect(queue.takeDue(now: 49 * Self.ms).isEmpty)
        #expect(queue.takeDue(now: 50 * Self.ms).map(\.item) == [1])
        #expect(queue.nextDueAt == 55 * Self.ms)
        #expect(queue.takeDue(now: 1_000 * Self.ms).map(\.item) == [2])
        #expect(queue.isEmpty && queue.heldBytes == 0)
    }

    @Test func jitterNeverLetsAnItemOvertakeAnEarlierOne() {
        var queue = DeliveryQueue<Int>()
        var random = SeededRandom(seed: 7)
        let conditions = LinkConditions(latency: .milliseconds(20), jitter: .milliseconds(100))
        var dues: [UInt64] = []
        for index in 0..<500 {
            dues.append(
                queue.enqueue(index, size: 1, now: UInt64(index) * Self.ms, conditions: conditions, random: &random))
        }
        #expect(dues == dues.sorted(), "arrivals keep the order of sending")
        #expect(dues.enumerated().allSatisfy { index, due in due >= (UInt64(index) + 20) * Self.ms })
        #expect(Set(dues.map { $0 / Self.ms }).count > 20, "the jitter varies")
        #expect(queue.takeDue(now: .max).map(\.item) == Array(0..<500))
    }

    @Test func theSameSeedGivesTheSameTiming() {
        func dues(seed: UInt64) -> [UInt64] {
            var queue = DeliveryQueue<Int>()
            var random = SeededRandom(seed: seed)
            let conditions = LinkConditions(latency: .milliseconds(5), jitter: .milliseconds(30))
            return (0..<50).map {
                queue.enqueue($0, size: 1, now: UInt64($0) * 40 * Self.ms, conditions: conditions, random: &random)
            }
        }
        #expect(dues(seed: 3) == dues(seed: 3))
        #expect(dues(seed: 3) != dues(seed: 4))
    }

    @Test func bandwidthSpacesItemsBySize() {
        var queue = DeliveryQueue<String>()
        var random = SeededRandom(seed: 1)
        // 1,000 B/s: a 100-byte write takes 100 ms to go onto the wire.
        let conditions = LinkConditions(latency: .milliseconds(10), bytesPerSecond: 1_000)
        #expect(queue.enqueue("a", size: 100, now: 0, conditions: conditions, random: &random) == 110 * Self.ms)
        #expect(queue.enqueue("b", size: 100, now: 0, conditions: conditions, random: &random) == 210 * Self.ms)
        // The wire was free again from 200 ms: a write at 500 ms waits only for itself.
        #expect(
            queue.enqueue("c", size: 50, now: 500 * Self.ms, conditions: conditions, random: &random) == 560 * Self.ms)
        #expect(
            queue.enqueue("close", size: 0, now: 500 * Self.ms, conditions: conditions, random: &random) == 560
                * Self.ms)
    }

    @Test func badConditionsAndModesAreNamed() throws {
        #expect(throws: LinkError.invalidConditions("latency -5 ms is negative")) {
            try LinkConditions(latency: .milliseconds(-5)).validated()
        }
        #expect(throws: LinkError.invalidConditions("bandwidth 0 B/s is not positive")) {
            try LinkConditions(bytesPerSecond: 0).validated()
        }
        #expect(throws: LinkError.unknownMode("down")) { try LinkMode.named("down") }
        #expect("\(LinkError.unknownMode("down"))" == "unknown link mode 'down' (expected up, blackhole or offline)")
        #expect(try LinkMode.named("blackhole") == .blackhole)
        #expect(LinkConditions.preset(named: "mobile") == .mobile)
        #expect(LinkConditions.mobile.description == "60 ms ± 40 ms, 1000000 B/s")
    }
}
