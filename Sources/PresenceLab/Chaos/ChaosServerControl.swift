import RTDBCore

/// The server of a chaos run, as its faults and its checker reach it: a `serve` child process,
/// or a simulated server in the run's own process.
public protocol ChaosServerControl: Sendable {
    /// Whether it runs now.
    var isRunning: Bool { get }
    /// Starts it (again), over the data it had.
    func start() async throws
    /// Kills it, with no goodbye to anyone; what it had stored survives.
    func kill() async throws
    /// Makes its disk full (true) or gives it room again (false).
    func setDiskFull(_ full: Bool)
    /// Stops it cleanly.
    func stop() async
    /// What it holds at `path`, as the admin reads it; nil when it does not answer.
    func read(_ path: String) async -> JSONValue?
}

extension ChaosServer: ChaosServerControl {
    /// What the server holds at `path`, over REST.
    public func read(_ path: String) async -> JSONValue? {
        await ChaosInspector { self.port }.read(path)
    }
}
