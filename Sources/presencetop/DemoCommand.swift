import ArgumentParser
import Foundation
import LinkSim
import Logging
import Presence
import RTDBClient
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
            """
    )

    @Option(help: "How many users.")
    var users = 4

    @Option(help: "How many devices each user has.")
    var devices = 2

    @Option(help: "How long the scenario runs, in seconds.")
    var seconds: Double = 20

    @Option(help: "Milliseconds between scenario steps.")
    var intervalMs = 700

    @Option(help: "Seeds the scenario and the links' jitter: the same seed gives the same steps.")
    var seed: UInt64 = 1

    @Option(help: "The links' conditions: perfect, lan, wifi, mobile or poor.")
    var link = "wifi"

    @Option(help: "The embedded server's heartbeat timeout in seconds (how long a blackhole goes unnoticed).")
    var heartbeatTimeout: Double = 5

    @Option(help: "Use the server at this URL (http://HOST:PORT?ns=NAMESPACE) instead of an embedded one.")
    var url: String?

    func validate() throws {
        if !(1...500).contains(users) { throw ValidationError("--users must be between 1 and 500, not \(users)") }
        if !(1...6).contains(devices) { throw ValidationError("--devices must be between 1 and 6, not \(devices)") }
        if !(seconds > 0) { throw ValidationError("--seconds must be a positive number") }
        if intervalMs < 10 { throw ValidationError("--interval-ms must be at least 10, not \(intervalMs)") }
        if !(heartbeatTimeout > 0) { throw ValidationError("--heartbeat-timeout must be a positive number of seconds") }
        if LinkConditions.preset(named: link) == nil {
            let names = LinkConditions.presets.map(\.name).joined(separator: ", ")
            throw ValidationError("--link '\(link)' is not a preset (\(names))")
        }
        if let url, DemoTarget(url: url) == nil {
            throw ValidationError("--url '\(url)' is not http://HOST:PORT?ns=NAMESPACE")
        }
    }

    func run() async throws {
        var logger = Logger(label: "presencetop.demo") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let conditions = LinkConditions.preset(named: link)!
        var embedded: InProcessServer?
        let target: DemoTarget
        if let url {
            target = DemoTarget(url: url)!
        } else {
            let server = try await InProcessServer.start(dataDirectory: nil) {
                $0.heartbeatTimeout = .milliseconds(Int64(heartbeatTimeout * 1000))
            }
            embedded = server
            target = DemoTarget(host: "127.0.0.1", port: server.port, namespace: "demo")
        }
        let serverText =
            embedded == nil ? target.description : "\(target.description) (embedded, heartbeat \(heartbeatTimeout) s)"
        let output = DemoOutput()
        output.line(
            "presencetop demo: \(users) users × \(devices) devices, links \(link) (\(conditions)), seed \(seed), server \(serverText)"
        )

        let watcherDatabase = Database(url: target.url, logger: logger)
        let directory = PresenceDirectory(database: watcherDatabase)
        let previous = Mutex<[UserPresence]>([])
        directory.start { users in
            let changes = previous.withLock { previous in
                defer { previous = users }
                return PresenceChange.between(previous, users)
            }
            for change in changes { output.event("\(change)") }
        }
        // A connect attempt swallowed by a blackhole is given up after 5 s (30 s in the SDKs), so
        // devices come back within the demo's time.
        var retryPolicy = RetryPolicy()
        retryPolicy.connectTimeoutMs = 5_000
        let population = try await Population(
            host: target.host, port: target.port, namespace: target.namespace, users: users, devicesPerUser: devices,
            conditions: conditions, seed: seed, retryPolicy: retryPolicy, logger: logger)

        var generator = ScenarioGenerator(seed: seed)
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var steps = 0
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(intervalMs))
            let step = generator.next(states: population.states)
            let device = population.devices[step.device]
            output.event("▸ \(device.label) \(Self.describe(step.action))")
            population.apply(step)
            steps += 1
        }

        output.event("▸ settling: every network back, every user signed in")
        population.settle()
        var settled = false
        for _ in 0..<600 {
            if population.isSettled(directory.users) {
                settled = true
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let final = directory.users
        // The watcher stops first: the devices closing below are the end of the demo, not news.
        directory.stop()
        output.summary(users: final, population: population, steps: steps)
        let ghosts = population.ghosts(in: final)
        await population.close()
        watcherDatabase.close()
        await embedded?.stop()
        guard settled else {
            output.line(
                "NOT SETTLED after 60 s: \(ghosts.isEmpty ? "entries missing" : "ghosts: \(ghosts.joined(separator: ", "))")"
            )
            throw ExitCode(1)
        }
        output.line("settled: every signed-in device has exactly one connection entry, and there are no ghosts")
    }

    static func describe(_ action: ScenarioStep.Action) -> String {
        switch action {
        case .network(.up): "network back"
        case .network(.offline): "network lost (reset: both ends know at once)"
        case .network(.blackhole): "network lost (blackhole: only the server's heartbeat notices)"
        case .signOut: "signs out"
        case .signIn: "signs in"
        }
    }
}
