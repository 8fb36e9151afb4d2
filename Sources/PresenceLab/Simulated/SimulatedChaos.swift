import ConcurrencyExtras
import Crypto
import Dispatch
import Foundation
import Logging
import RTDBClient
import RTDBCore
import Synchronization

/// A chaos run on simulated time: the server engine, every device's engine and links in this
/// process, on one clock that only the run moves, every task on one serial queue, and every
/// random draw from the seed, so that the same seed gives the same run, event for event, on any
/// machine and under any load (docs/reliability.md#simulated-chaos).
///
/// The run is ``ChaosRun``'s, on a ``ChaosStage`` of simulated parts: ``SimulatedServer`` over a
/// ``SimulatedDisk``, a ``SimulatedLink`` per device boot, SQLite files for the devices. Time
/// moves in steps of 10 ms once everything due has had its turn. Runs need
/// `SWIFT_DETERMINISTIC_HASHING=1` in the environment (the command sets it), or dictionaries
/// iterate in an order of the process's own.
public enum SimulatedChaos {
    /// What a simulated run gives: the report, and the trace of what happened, stamped with the
    /// run's time.
    public struct Outcome: Sendable {
        /// The checks' verdict.
        public var report: ChaosReport
        /// One line per event, in order.
        public var trace: [String]
        /// SHA-256 of the trace's lines, each ended by a newline, in hex: equal digests, equal runs.
        public var digest: String {
            let text = trace.map { $0 + "\n" }.joined()
            return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
    }

    /// A run that did not end within the simulated time healing and the checks can take.
    ///
    /// A device stuck, or a wait that nothing ends; its trace tells where it stood.
    public struct Stuck: Error, CustomStringConvertible {
        /// How much simulated time passed.
        public var limit: Duration
        /// The trace up to then.
        public var trace: [String]
        /// What went wrong, with the last events.
        public var description: String {
            "the simulated run did not end within \(limit) of simulated time; its last events:\n"
                + trace.suffix(15).joined(separator: "\n")
        }
    }

    /// How far the clock moves at each step.
    static let step = Duration.milliseconds(10)
    /// Turns every task gets before the clock moves (each yield lets everything queued run).
    static let turnsPerStep = 24
    /// Turns after each sleeper the clock wakes, before the next.
    static let turnsPerWake = 4
    /// When a simulated run's clock starts: a fixed date, so that the run is the same on every machine.
    public static let epoch = UnixTime(millisecondsSince1970: 1_767_225_600_000)  // 2026-01-01T00:00:00Z

    /// Runs the chaos of `options` on simulated time.
    ///
    /// Must be called from the main actor, whose queue the run takes over until it returns.
    @MainActor
    public static func run(_ options: ChaosOptions, progress: @escaping @Sendable (String) -> Void = { _ in })
        async throws -> Outcome
    {
        try FileManager.default.createDirectory(at: options.folder, withIntermediateDirectories: true)
        let logger = {
            var logger = Logger(label: "presencetop.chaos.simulated")
            logger.logLevel = .critical
            return logger
        }()
        let clock = ManualClock()
        let wall: WallClock = { epoch + clock.elapsed }
        let elapsed: @Sendable () -> Duration = { clock.elapsed }
        let trace = Mutex<[String]>([])
        let note: @Sendable (String) -> Void = { line in
            let stamp = String(format: "%9.3f", Double(elapsed().wholeMilliseconds) / 1000)
            trace.withLock { $0.append("\(stamp) \(line)") }
        }
        let time = TimeSource(wall: wall, clock: clock)
        let server = SimulatedServer(time: time, logger: logger)
        let boots = Mutex<[Int: UInt64]>([:])
        let heartbeat = Duration.seconds(options.heartbeatTimeout)
        let seed = options.seed
        let stage = ChaosStage(
            server: server,
            devices: DeviceOpener(time: time) { index, label, deviceTime in
                let boot = boots.withLock { boots -> UInt64 in
                    boots[index, default: 0] += 1
                    return boots[index, default: 0]
                }
                let stream = seed &+ UInt64(index) &* 1_000_003 &+ boot &* 7_919
                let link = SimulatedLink(
                    server: server, time: time, heartbeat: heartbeat, seed: stream, label: label, note: note)
                let database = Database(
                    url: SimulatedLink.databaseURL, transport: link, time: deviceTime,
                    logger: logger, confinement: EngineConfinement(queue: .main, seed: stream))
                return (link, database)
            }, note: note)

        let wasSerial = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
        defer { uncheckedUseMainSerialExecutor = wasSerial }
        try await server.start()
        let ended = Mutex<Result<ChaosReport, any Error>?>(nil)
        Task {
            let result: Result<ChaosReport, any Error>
            do {
                result = .success(
                    try await ChaosRun.play(options, on: stage) { line in
                        note(line)
                        progress(line)
                    })
            } catch {
                result = .failure(error)
            }
            ended.withLock { $0 = result }
        }
        // Far more than the faults, healing (2 minutes at most) and the checks take.
        let limit = Duration.seconds(options.duration) + .seconds(600)
        while true {
            for _ in 0..<turnsPerStep { await Task.yield() }
            if let result = ended.withLock({ $0 }) {
                note("the run ends")
                return Outcome(report: try result.get(), trace: trace.withLock { $0 })
            }
            guard elapsed() < limit else {
                note("the run did not end")
                throw Stuck(limit: limit, trace: trace.withLock { $0 })
            }
            await clock.advance(by: step, turns: turnsPerWake)
        }
    }
}
