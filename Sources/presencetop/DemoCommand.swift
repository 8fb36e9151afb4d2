import ArgumentParser
import Foundation
import LinkSim
import Logging
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import Synchronization

/// `presencetop demo`: a simulated population on a real server, headless.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a simulated population of users and devices and print how presence changes.",
        discussion: """
            Every device is its own client instance behind its own fault-injecting link. A seeded \
            scenario makes networks drop (reset or blackhole) and come back, and users sign out and \
            in; a watcher prints every change it sees. At the end every network comes back and every \
            user signs in, and the demo checks that the presence tree settles with exactly one entry \
            per device and no ghosts (exit status 1 if it does not within 60 s).

            With --scenario FILE it plays a scenario file instead (docs/scenarios.md): its \
            population, its timed steps, and its expectations, each printed as it passes or fails; \
            the exit status is 0 when every expectation held, 1 otherwise, 2 for a file with a \
            problem (named with its line).
            """
    )

    @OptionGroup var population: PopulationOptions
    @OptionGroup var scenarioOption: ScenarioOption

    @Option(help: "How many users.")
    var users = 4

    @Option(help: "How long the scenario runs, in seconds.")
    var seconds: Double = 20

    @Option(help: "Milliseconds between scenario steps.")
    var intervalMs = 700

    func validate() throws {
        if !(1...500).contains(users) { throw ValidationError("--users must be between 1 and 500, not \(users)") }
        _ = try SecondsRange.runLength.option(seconds, "--seconds")
        if intervalMs < 10 { throw ValidationError("--interval-ms must be at least 10, not \(intervalMs)") }
    }

    func run() async throws {
        if let scenario = try scenarioOption.load() {
            try await play(scenario)
            return
        }
        var logger = Logger(label: "presencetop.demo") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        var options = SimulationOptions()
        options.thisDevice = nil
        options.users = users
        try population.apply(to: &options)
        options.clockSpread = .zero
        options.namespace = "demo"
        let output = DemoOutput()
        // The header names the server, which is known only once it runs: events wait for it.
        let started = Mutex(false)
        let early = Mutex<[String]>([])
        let simulation = try await Simulation.start(options, logger: logger) { event in
            let line: String
            switch event.kind {
            case .presence(let change): line = "\(change)"
            case .presenceBurst(let burst): line = "\(burst)"
            default: return
            }
            let ready = started.withLock { $0 }
            if ready { output.event(line) } else { early.withLock { $0.append(line) } }
        }
        let serverText =
            simulation.embedded == nil
            ? simulation.target.description
            : "\(simulation.target.description) (embedded, heartbeat \(population.heartbeatTimeout) s)"
        output.line(
            "presencetop demo: \(users) users × \(population.devices) devices, links \(population.link) (\(options.conditions)), seed \(population.seed), server \(serverText)"
        )
        started.withLock { $0 = true }
        for line in early.withLock({ $0 }) { output.event(line) }

        let deadline = ContinuousClock.now + (try SecondsRange.runLength.option(seconds, "--seconds"))
        var steps = 0
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(intervalMs))
            if let (label, action) = simulation.step() { output.event("▸ \(label) \(Self.describe(action))") }
            steps += 1
        }

        output.event("▸ settling: every network back, every user signed in")
        simulation.settle()
        var settled = false
        for _ in 0..<600 {
            if simulation.isSettled {
                settled = true
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let final = simulation.users
        let ghosts = simulation.ghosts
        output.summary(users: final, population: simulation.population, steps: steps)
        await simulation.stop()
        guard settled else {
            output.line(
                "NOT SETTLED after 60 s: \(ghosts.isEmpty ? "entries missing" : "ghosts: \(ghosts.joined(separator: ", "))")"
            )
            throw ExitCode(1)
        }
        output.line("settled: every signed-in device has exactly one connection entry, and there are no ghosts")
    }

    /// Plays a scenario file headless: an embedded server keeping its data in a temporary folder
    /// (so that a restart keeps it), this device with a persistent queue, the file's population.
    private func play(_ scenario: ScenarioFile) async throws {
        var logger = Logger(label: "presencetop.demo") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "presencetop-scenario-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = SimulationOptions()
        try population.apply(to: &options)
        options.usePopulation(of: scenario)
        options.namespace = "demo"
        if population.url == nil {
            options.server = .embedded(dataDirectory: folder.appendingPathComponent("server"))
        }
        options.thisDevice = SimulationOptions.ThisDevice(persistenceDirectory: folder.appendingPathComponent("device"))
        let output = DemoOutput()
        let simulation = try await Simulation.start(options, logger: logger) { event in
            switch event.kind {
            case .scenario(let text, _): output.event(text)
            case .presence(let change): output.event("\(change)")
            case .presenceBurst(let burst): output.event("\(burst)")
            default: break
            }
        }
        output.line(
            "presencetop demo --scenario: \"\(scenario.name)\": \(scenario.population.users) users × \(scenario.population.devices) devices, \(scenario.steps.count) steps, \(scenario.expectations.count) expectations over at most \(Int(scenario.duration.rounded(.up))) s, server \(simulation.target)"
        )
        if !scenario.summary.isEmpty { output.line(scenario.summary) }
        let verdicts = await simulation.play(scenario)
        await simulation.stop()
        guard ScenarioRun.summary(scenario, verdicts).passed else { throw ExitCode(1) }
    }

    static func describe(_ action: ChurnStep.Action) -> String {
        switch action {
        case .network(.up): "network back"
        case .network(.offline): "network lost (reset: both ends know at once)"
        case .network(.blackhole): "network lost (blackhole: only the server's heartbeat notices)"
        case .signOut: "signs out"
        case .signIn: "signs in"
        }
    }
}
