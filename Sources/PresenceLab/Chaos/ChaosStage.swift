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
    /// How a device reaches the server: a new link for each boot (named `user/name`) and a
    /// database through it, on the device's time (its wall clock may be off); the device sets
    /// its persistence before using it.
    public let devices: DeviceOpener
    /// The run's time: the identity provider's and the server's wall clock (tokens' `iat`), and
    /// what the run and its devices sleep on.
    public var time: TimeSource { devices.time }
    /// How long the run has been going.
    public let elapsed: @Sendable () -> Duration
    /// Told what happens, as it happens (the simulated run's trace).
    public let note: @Sendable (String) -> Void

    /// Makes a stage whose devices `devices` opens, on its time; the run starts now.
    public init(
        server: any ChaosServerControl, devices: DeviceOpener, note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.server = server
        self.devices = devices
        self.elapsed = devices.time.stopwatch()
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
