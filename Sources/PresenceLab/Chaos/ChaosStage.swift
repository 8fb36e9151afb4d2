import Foundation
import RTDBClient
import RTDBCore

/// Where a chaos run plays: its server, how a device reaches it, and the run's time.
///
/// The run itself (``ChaosRun``) is the same on every stage: on loopback, a `serve` process
/// and proxies on the machine's clock; simulated, everything in one process on a clock the run
/// moves (``SimulatedChaos``).
public struct ChaosStage: Sendable {
    /// The server, which faults kill and fill.
    public let server: any ChaosServerControl
    /// A new link for device `index` (each boot has its own) and a database reached through
    /// it, on the device's wall clock; the device sets its persistence before using it.
    public let openDevice:
        @Sendable (_ index: Int, _ clock: @escaping WallClock) async throws -> (any ChaosLink, Database)
    /// The identity provider's clock (tokens' `iat`): the server's, not a device's.
    public let now: WallClock
    /// How long the run has been going.
    public let elapsed: @Sendable () -> Duration
    /// Sleeps on the run's time.
    public let sleep: @Sendable (Duration) async throws -> Void
    /// Told what happens, as it happens (the simulated run's trace).
    public let note: @Sendable (String) -> Void

    /// Makes a stage.
    public init(
        server: any ChaosServerControl,
        openDevice:
            @escaping @Sendable (_ index: Int, _ clock: @escaping WallClock) async throws -> (any ChaosLink, Database),
        now: @escaping WallClock, elapsed: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.server = server
        self.openDevice = openDevice
        self.now = now
        self.elapsed = elapsed
        self.sleep = sleep
        self.note = note
    }

    /// Sleeps until the run has gone on for `offset`.
    func sleep(untilElapsed offset: Duration) async throws {
        let left = offset - elapsed()
        if left > .zero { try await sleep(left) }
    }

    /// Sleeps for `seconds` of the run's time.
    func hold(_ seconds: Double) async throws { try await sleep(.milliseconds(Int64(seconds * 1000))) }
}
