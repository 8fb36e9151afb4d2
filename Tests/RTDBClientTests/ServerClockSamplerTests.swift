import RTDBCore
import Testing

@testable import RTDBClient

/// The server's clock estimated from samples, with no connection at all.
@Suite struct ServerClockSamplerTests {
    private let start = UnixTime(millisecondsSince1970: 1_000_000)

    private func sample(
        _ sampler: inout ServerClockSampler, offset: Int64, roundTrip: Int64, at: Int64
    ) -> (offset: Duration, errorBound: Duration) {
        let sentAt = start + .milliseconds(at)
        let receivedAt = sentAt + .milliseconds(roundTrip)
        let serverTime = sentAt + .milliseconds(roundTrip / 2 + offset)
        return sampler.add(serverTime: serverTime, sentAt: sentAt, receivedAt: receivedAt)
    }

    @Test func theTightestSampleWinsAndAStepStartsAgain() {
        let time = TimeSource(wall: { UnixTime(millisecondsSince1970: 0) }, clock: ManualClock())
        var sampler = ServerClockSampler(time)
        #expect(sample(&sampler, offset: 40, roundTrip: 100, at: 0) == (.milliseconds(40), .milliseconds(50)))
        // A tighter sample that agrees (its interval overlaps) becomes the estimate.
        #expect(sample(&sampler, offset: 20, roundTrip: 20, at: 1_000) == (.milliseconds(20), .milliseconds(10)))
        // A looser one that agrees changes nothing.
        #expect(sample(&sampler, offset: 60, roundTrip: 200, at: 2_000) == (.milliseconds(20), .milliseconds(10)))
        // One that cannot be the same clock (2 s off, beyond both bounds): the old samples go.
        #expect(
            sample(&sampler, offset: 2_000, roundTrip: 300, at: 3_000) == (.milliseconds(2_000), .milliseconds(150)))
    }
}
