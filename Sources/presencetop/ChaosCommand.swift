import ArgumentParser
import Foundation
import Logging
import Presence
import PresenceLab
import RTDBCore

/// `presencetop chaos`: a seeded chaos run over the real stack, with its verdict.
struct ChaosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos",
        abstract: "Run devices against a real server under random faults, then check the truth.",
        discussion: """
            Starts 'presencetop serve' as a child process, and devices that each have their own \
            link and SQLite file, run the presence flow and keep writing (sets, updates, \
            increments, transactions). Faults drawn from the seed strike them: offline, blackhole, \
            latency, bandwidth caps, device crashes and restarts, clock jumps, credential expiry, \
            and server SIGKILL and restart. Then everything heals, some devices die for good, and \
            the run checks that presence shows exactly the live devices within the heartbeat \
            timeout and that every write a device accepted was applied exactly once. Exit status \
            1 when a check fails; the same seed replays the same faults.

            With --simulated, everything runs in this process on simulated time (links, server \
            kills and full disks included): the same seed gives the same run, event for event, on \
            any machine and under any load; the trace's digest is printed at the end and \
            --trace writes the trace itself.
            """
    )

    @Option(help: "Simulated devices.")
    var devices = 100

    @Option(help: "Seconds of faults and writes before healing.")
    var duration = 300.0

    @Option(help: "The seed of the faults and writes (default: random, printed).")
    var seed: UInt64?

    @Option(help: "The server's heartbeat timeout in seconds.")
    var heartbeatTimeout = 5

    @Option(
        help: ArgumentHelp(
            "Only these fault kinds, comma-separated: \(ChaosSchedule.kinds.joined(separator: ", ")).",
            valueName: "kinds"))
    var faults: String?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Flag(help: "Run on simulated time in this process: the same seed replays the same run exactly.")
    var simulated = false

    @Option(
        help: ArgumentHelp("With --simulated, write the run's trace (an event a line) to this file.", valueName: "file")
    )
    var trace: String?

    func validate() throws {
        guard devices >= 1 else { throw ValidationError("--devices must be at least 1") }
        _ = try SecondsRange(5...(365 * 86_400)).option(duration, "--duration")
        guard heartbeatTimeout >= 1 else { throw ValidationError("--heartbeat-timeout must be at least 1") }
        if trace != nil, !simulated {
            throw ValidationError("--trace needs --simulated (only a simulated run has a trace)")
        }
        for kind in faultKinds ?? [] where !ChaosSchedule.kinds.contains(kind) {
            throw ValidationError(
                "unknown fault kind '\(kind)' (kinds: \(ChaosSchedule.kinds.joined(separator: ", ")))")
        }
    }

    var faultKinds: Set<String>? {
        faults.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
    }

    func run() async throws {
        if simulated { return try await runSimulated() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "presencetop-chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var options = ChaosOptions(serverCommand: [executable, "serve"], folder: folder)
        options.devices = devices
        options.duration = duration
        options.seed = seed ?? UInt64.random(in: 1...999_999_999)
        options.heartbeatTimeout = heartbeatTimeout
        options.faultKinds = faultKinds
        var logger = Logger(label: "presencetop.chaos")
        logger.logLevel = .critical
        let quiet = json
        if !quiet { print("chaos: seed \(options.seed)") }
        let report = try await ChaosRun.run(options, logger: logger) { line in
            if !quiet { print(line) }
        }
        print(json ? report.json.jsonString : report.text)
        if !report.passed { throw ExitCode(1) }
    }
}
