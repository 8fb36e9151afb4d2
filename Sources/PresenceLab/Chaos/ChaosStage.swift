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
    /// A new link for device `index` (`label`, as `user/name`; each boot has its own link) and
    /// a database reached through it, on the device's time (its wall clock may be off); the
    /// device sets its persistence before using it.
    public let openDevice:
        @Sendable (_ index: Int, _ label: String, _ time: TimeSource) async throws -> (any NetworkLink, Database)
    /// The run's time: the identity provider's and the server's wall clock (tokens' `iat`), and
    /// what the run and its devices sleep on.
    public let time: TimeSource
    /// How long the run has been going.
    public let elapsed: @Sendable () -> Duration
    /// Told what happens, as it happens (the simulated run's trace).
    public let note: @Sendable (String) -> Void

    /// Makes a stage; the run starts now.
    public init(
        server: any ChaosServerControl,
        openDevice:
            @escaping @Sendable (_ index: Int, _ label: String, _ time: TimeSource) async throws -> (
                any NetworkLink, Database
            ),
        time: TimeSource, note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.server = server
        self.openDevice = openDevice
        self.time = time
        self.elapsed = time.stopwatch()
        self.note = note
    }

    /// Sleeps for `duration` of the run's time.
    func sleep(_ duration: Duration) async throws { try await time.sleep(for: duration) }

    /// Sleeps until the run has gone on for `offset`.
    func sleep(untilElapsed offset: Duration) async throws {
        let left = offset - elapsed()
        if left > .zero { try await sleep(left) }
    }

    /// Sleeps for `seconds` of the run's time.
    func hold(_ seconds: Double) async throws { try await sleep(.milliseconds(Int64(seconds * 1000))) }
}
