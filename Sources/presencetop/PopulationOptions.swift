import ArgumentParser
import PresenceLab
import RTDBCore

/// The options the dashboard and `presencetop demo` share.
///
/// The simulated devices, their seed and links, and the server they run against: one
/// declaration, one home for each check.
struct PopulationOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Devices per simulated user (1-6).")
    var devices = 2

    @Option(help: "Seeds the links' jitter, the devices' clocks and the scenario: the same seed gives the same steps.")
    var seed: UInt64 = 1

    @Option(help: "The links' conditions: perfect, lan, wifi, mobile or poor.")
    var link = "wifi"

    @Option(
        parsing: .unconditional,
        help: "The embedded server's heartbeat timeout in seconds (how long a blackhole goes unnoticed).")
    var heartbeatTimeout: Double = 5

    @Option(help: "Attach to this server (http://HOST:PORT?ns=NAMESPACE) instead of an embedded one.")
    var url: String?

    func validate() throws {
        if !(1...6).contains(devices) { throw ValidationError("--devices must be between 1 and 6, not \(devices)") }
        _ = try SecondsRange.interval.option(heartbeatTimeout, "--heartbeat-timeout")
        _ = try SimulationFlags.conditions(named: link)
        if let url { _ = try SimulationFlags.target(url: url) }
    }

    /// Sets the simulation's seed, links, devices per user, heartbeat and (with `--url`) server.
    func apply(to options: inout SimulationOptions) throws {
        options.seed = seed
        options.conditions = try SimulationFlags.conditions(named: link)
        options.devicesPerUser = devices
        options.heartbeatTimeout = try SecondsRange.interval.option(heartbeatTimeout, "--heartbeat-timeout")
        if let url { options.server = .remote(try SimulationFlags.target(url: url)) }
    }
}
