import Foundation
import Logging
import PresenceLab

extension DashboardCommand {
    /// How long `q` waits for the simulation to stop before the process leaves anyway.
    static let exitGrace: Duration = .seconds(10)

    /// Stops the simulation, waiting at most ``exitGrace``: past it, stderr and the log say so and
    /// the dashboard exits with the rest unfinished.
    ///
    /// Leaving is safe: every write the engine accepted is already committed to SQLite (the
    /// stop only closes files and sockets), and a server that loses its WebSocket runs the
    /// onDisconnect operations as for a lost phone. A person who pressed `q` should not wait on a
    /// disk that takes seconds to sync.
    static func stop(_ simulation: Simulation, logger: Logger) async {
        let finished = await Self.finishes(within: exitGrace) { await simulation.stop() }
        guard !finished else { return }
        let message = "stopping took over \(exitGrace) (the log names the step it was in); left unfinished"
        logger.warning("\(message)")
        FileHandle.standardError.write(Data("presencetop: \(message)\n".utf8))
    }

    /// Runs `work` in a task of its own and returns true when it ended within `limit`, false
    /// (leaving it running) when the limit came first.
    static func finishes(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        Task {
            await work()
            outcome.yield(true)
        }
        Task {
            try? await Task.sleep(for: limit)
            outcome.yield(false)
        }
        for await finished in outcomes { return finished }
        return false
    }
}
