import Foundation
import RTDBCore
import RTDBTestSupport
import Synchronization
import Testing

@testable import RTDBClient

/// A step of this device's wall clock is noticed and the server-time offset moved at once,
/// against the engine in process (InProcessServer), with time moved by hand. (Firebase's Apple SDK keeps the
/// handshake's offset until the next handshake.)
@Suite struct ClockJumpTests {
    @Test func aStepOfTheWallClockMovesTheOffsetAtOnce() async throws {
        let time = TestTime()
        let server = try await InProcessServer.start(time: time)
        let step = Mutex(Duration.zero)
        let database = Database(
            url: "http://in-process?ns=demo", transport: server.transport,
            time: time.source.withWall({ time.now + step.withLock { $0 } }))
        var policy = RetryPolicy()
        policy.pingInterval = .seconds(1)
        database.retryPolicy = policy
        let offsets = Recorder<Int>()
        database.reference(withPath: ".info/serverTimeOffset").observe(.value) { snapshot in
            offsets.record(snapshot.value as? Int ?? -1)
        }
        try await database.reference(withPath: "warmup").setValue(true)
        await database.barrier()
        #expect(database.connectionStatus.phase.isConnected, "a write was acknowledged")
        let before = try #require(offsets.all.last)
        #expect(abs(before) < 100, "the clocks agree: \(offsets.all)")

        // The user sets the clock 30 s ahead; at the next keepalive tick the client notices.
        step.withLock { $0 = .seconds(30) }
        await time.advance(by: .milliseconds(1_100))
        #expect(
            await offsets.wait { $0.last.map { abs($0 - (before - 30_000)) < 100 } ?? false },
            "\(offsets.all)")
        // Read at once: the status knows the step before the offset's event is raised (it was
        // told after, and a loaded run once read the moved offset with no step recorded).
        let jump = try #require(database.connectionStatus.lastClockJump)
        #expect(abs(jump.by.inMilliseconds - 30_000) < 100, "\(jump)")
        // Server timestamps written now are in server time, not 30 s ahead.
        try await database.reference(withPath: "stamp").setValue(ServerValue.timestamp())
        let local = try await database.reference(withPath: "stamp").getData()
        let stamped = try #require(local.value as? Int)
        #expect(abs(Int64(stamped) - time.now.millisecondsSince1970) < 1_000, "\(stamped) vs \(time.now)")
        database.close()
        await server.stop()
    }

    @Test func theDetectorIgnoresDriftAndSeesSteps() {
        let time = TestTime()
        let wall = Mutex(Duration.zero)
        var detector = ClockJumpDetector(time.source.withWall({ time.now + wall.withLock { $0 } }))
        #expect(detector.look() == nil)
        wall.withLock { $0 = .milliseconds(200) }
        #expect(detector.look() == nil, "200 ms is below the threshold")
        wall.withLock { $0 = .milliseconds(200) - .seconds(5) }
        #expect(detector.look() == .seconds(-5), "set back 5 s")
        #expect(detector.look() == nil, "once")
    }
}
