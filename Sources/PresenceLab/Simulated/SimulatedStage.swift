import Logging
import RTDBClient
import RTDBCore

/// A lab's server and network in this process, on one clock the caller moves: a
/// ``SimulatedServer``, and a ``SimulatedLink`` to it for each client (the population's devices,
/// this device, the watcher).
///
/// Given as ``SimulationOptions/Server/simulated(_:)``, it puts the whole dashboard's lab on the
/// deterministic tier: no socket, no thread's timing, time moved by hand.
public struct SimulatedStage: Sendable, Equatable {
    /// The server (the simulation starts it if it is not running, and stops it at the end).
    public let server: SimulatedServer
    /// The clock and wall clock everything on the stage runs on.
    public let time: TimeSource

    /// A stage of `server`, on `time`.
    public init(server: SimulatedServer, time: TimeSource) {
        self.server = server
        self.time = time
    }

    /// A database reached through `link`, on `time` (a device's clock may be off the stage's).
    public func database(through link: SimulatedLink, time: TimeSource, logger: Logger) -> Database {
        Database(url: SimulatedLink.databaseURL, transport: link, time: time, logger: logger)
    }

    /// Whether both are the same server.
    public static func == (lhs: SimulatedStage, rhs: SimulatedStage) -> Bool { lhs.server === rhs.server }
}
