import Testing

@testable import RTDBClient

/// An idempotency key is the instance's id and the write's number, as interpolation would write
/// them, whatever the number.
@Suite struct IdempotencyKeyTests {
    @Test(arguments: [0, 7, 10, 99, 1_000, 123_456_789, -1, -40, Int.max, Int.min])
    func aNumberAfterAnInstanceReadsAsInterpolated(_ number: Int) {
        for instance in ["", "abc", "instance-é-\u{1F600}", String(repeating: "p", count: 40)] {
            #expect(WriteIDs.key(instance: instance, number) == "\(instance):\(number)")
        }
    }
}
