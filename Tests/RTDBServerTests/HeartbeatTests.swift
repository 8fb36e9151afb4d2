import Testing

@testable import RTDBServer

/// What a tick decides for a session (docs/wire-protocol.md#heartbeat).
@Suite struct HeartbeatTests {
    @Test func silenceBetweenAPingAndAnOnTimeTickEndsTheSession() {
        let heartbeat = Heartbeat()
        #expect(heartbeat.judge(onTime: true) == .ping, "the first tick pings")
        heartbeat.heard()
        #expect(heartbeat.judge(onTime: true) == .ping, "heard since the ping")
        #expect(heartbeat.judge(onTime: false) == .ping, "a late tick only pings")
        #expect(heartbeat.judge(onTime: true) == .silent)
    }

    @Test func aPeerTheServerStoppedReadingIsNotJudgedSilent() {
        // The server's own request window (or the message rate) holds the peer's bytes unread:
        // that is the server's doing, not the peer's silence (CI saw a pipelining client closed).
        let heartbeat = Heartbeat()
        _ = heartbeat.judge(onTime: true)
        heartbeat.holdReads()
        #expect(heartbeat.judge(onTime: true) == .ping)
        #expect(heartbeat.judge(onTime: true) == .ping)
        heartbeat.resumeReads()
        #expect(heartbeat.judge(onTime: true) == .ping, "resuming counts as hearing")
        #expect(heartbeat.judge(onTime: true) == .silent)
    }
}
