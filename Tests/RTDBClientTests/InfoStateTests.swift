import RTDBCore
import Testing

@testable import RTDBClient

/// What the client knows of its connection, alone: `.info` and push ids keep one offset.
@Suite struct InfoStateTests {
    static func info() -> InfoState { InfoState(pushIDs: PushIDSource(PushIDGenerator(random: SeededRandom(seed: 3)))) }

    @Test func theServerTimeOffsetIsOneFactForInfoAndPushIDs() {
        let info = Self.info()
        _ = info.setServerTimeOffset(.milliseconds(-1_500))
        #expect(info.serverTimeOffset == .milliseconds(-1_500) && info.pushIDs.offset == .milliseconds(-1_500))
        #expect(info.data.child(at: Path(".info/serverTimeOffset")).exportJSON == -1_500)
        // A push id made now is made 1.5 s earlier in server time: it sorts before one made
        // with the offset at zero a second ago.
        let now = UnixTime(millisecondsSince1970: 1_700_000_000_000)
        let shifted = info.pushIDs.next(now: now)
        _ = info.setServerTimeOffset(.zero)
        let earlier = info.pushIDs.next(now: UnixTime(millisecondsSince1970: 1_699_999_999_000))
        #expect(CodeUnitString(shifted) < CodeUnitString(earlier), "\(shifted) < \(earlier)")
    }

    @Test func connectedIsSetAndShutDownLetsGoOfObservers() {
        let info = Self.info()
        _ = info.setConnected(true)
        #expect(info.data.child(at: Path(".info/connected")).exportJSON == true)
        info.status.observers[1] = { _ in }
        info.removeAll()
        #expect(info.status.observers.isEmpty)
    }
}
