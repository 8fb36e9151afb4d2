import Foundation
import RTDBCore
import Testing

@Suite struct UnixTimeTests {
    let start = UnixTime(millisecondsSince1970: 1_795_356_300_000)

    @Test func spansBetweenMomentsAreDurations() {
        let later = start + .milliseconds(1_500)
        #expect(later.millisecondsSince1970 == 1_795_356_301_500)
        #expect(later - start == .milliseconds(1_500))
        #expect(start - later == .milliseconds(-1_500))
        #expect(later - .milliseconds(1_500) == start)
        #expect(start < later)
        // Below a millisecond is dropped: the wire's unit.
        #expect(start + .microseconds(999) == start)
    }

    @Test func theEndsOfTimeSaturateInsteadOfTrapping() {
        let end = UnixTime(millisecondsSince1970: .max)
        #expect(end + .seconds(1) == end)
        #expect(UnixTime(millisecondsSince1970: .min) - .seconds(1) == UnixTime(millisecondsSince1970: .min))
        #expect(end - UnixTime(millisecondsSince1970: .min) == .milliseconds(Int64.max))
        // A hostile token's `exp` of 2^62 seconds.
        #expect(UnixTime(secondsSince1970: 1 << 62) == end)
        #expect(UnixTime(Date.distantFuture).millisecondsSince1970 > start.millisecondsSince1970)
    }

    @Test func secondsRoundDownOnBothSidesOfTheEpoch() {
        #expect(UnixTime(millisecondsSince1970: 1_999).secondsSince1970 == 1)
        #expect(UnixTime(millisecondsSince1970: -1).secondsSince1970 == -1)
        #expect(UnixTime(secondsSince1970: 7).millisecondsSince1970 == 7_000)
    }

    @Test func theWireFormIsANumberOfMilliseconds() throws {
        let data = try JSONEncoder().encode(["at": start])
        #expect(String(decoding: data, as: UTF8.self) == #"{"at":1795356300000}"#)
        #expect(try JSONDecoder().decode([String: UnixTime].self, from: data) == ["at": start])
        #expect(start.description == "2026-11-22T14:05:00.000Z")
    }

    @Test func durationsInWholeMilliseconds() {
        #expect(Duration.milliseconds(1_234).wholeMilliseconds == 1_234)
        #expect(Duration.microseconds(-1_500).wholeMilliseconds == -1)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.milliseconds(250).inSeconds == 0.25)
        #expect(Duration.microseconds(1_500).inMilliseconds == 1.5)
    }
}
