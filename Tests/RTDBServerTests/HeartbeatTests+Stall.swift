import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBServer

extension HeartbeatTests {
    /// A server that was not running (stopped, starved) holds its own stall against nobody: the
    /// late tick and the one after it only ping, so a peer has a full timeout from the resume to
    /// be heard; then it is judged as before. (Was a `serve` process stopped with SIGSTOP for 13 s
    /// of wall time; the stall is now the clock's, and the same rule is checked in no time.)
    @Test func aServerThatStalledGivesItsPeersAFullTimeoutFromTheResume() async throws {
        let clock = ManualClock()
        let start = UnixTime.now()
        let time = TimeSource(wall: { start + clock.elapsed }, clock: clock)
        // Ticks every 6 s.
        let server = try await TestServer.start(heartbeatTimeout: .seconds(12), time: time)
        let raw = try await RawTCPClient(port: server.port)
        try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await raw.read(until: #""t":"h""#)
        let session = try #require(server.server.connections.connections.first?.sessionID)
        func judged(_ ticks: Int) async throws -> Bool {
            try await until(server.server.metrics.changes) { server.server.heartbeatTicksJudged >= ticks }
        }

        // The first tick pings; the peer never answers, nor says anything else, from here on.
        await clock.advance(by: .milliseconds(6_001), turns: 10)
        try await raw.readWebSocketPing("hb")
        #expect(try await judged(1))
        // The server stalls from 6 s to 19 s: the tick due at 12 s wakes 7 s late and only pings.
        clock.stall(for: .seconds(13))
        try await raw.readWebSocketPing("hb")
        #expect(try await judged(2))
        // The next tick, a period after the wake, is on time but still only pings.
        await clock.advance(by: .milliseconds(6_001), turns: 10)
        try await raw.readWebSocketPing("hb")
        #expect(try await judged(3))
        #expect(server.server.heartbeatSessionsJudgedSilent == 0)
        #expect(server.server.connections[session] != nil, "alive through the stall and a timeout after it")
        // A full timeout after the resume with nothing heard: judged silent, and closed.
        await clock.advance(by: .milliseconds(6_001), turns: 10)
        await raw.waitUntilClosed()
        #expect(server.server.heartbeatSessionsJudgedSilent == 1)
        await raw.close()
        await server.stop()
    }
}
