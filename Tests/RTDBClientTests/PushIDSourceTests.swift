import RTDBCore
import Testing

@testable import RTDBClient

/// The server-time offset push ids are stamped with, kept for readers on any thread.
@Suite struct PushIDSourceTests {
    @Test(arguments: [Duration.zero, .milliseconds(1_234), .milliseconds(-1_500), .nanoseconds(-7), .seconds(-86_400)])
    func theOffsetReadsBackAsSet(_ offset: Duration) {
        let source = PushIDSource(PushIDGenerator())
        source.offset = offset
        #expect(source.offset == offset)
    }

    @Test func idsAreStampedInServerTime() {
        let (ahead, behind) = (PushIDSource(PushIDGenerator()), PushIDSource(PushIDGenerator()))
        ahead.offset = .seconds(3_600)
        let now = UnixTime(millisecondsSince1970: 1_700_000_000_000)
        // The first eight characters encode the time: an hour ahead sorts after now.
        #expect(ahead.next(now: now).prefix(8) > behind.next(now: now).prefix(8))
    }
}
