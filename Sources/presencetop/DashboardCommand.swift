import ArgumentParser
import CursesBackend
import Dashboard
import DashboardRuntime
import Foundation
import LabDashboard
import LinkSim
import Logging
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `presencetop` with no subcommand: the full-screen dashboard over a live engine.
struct DashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Open the dashboard (the default): presence, connection, clock skew and pending writes, live.",
        discussion: """
            By default everything runs here: an embedded server on a free loopback port, this device \
            (user morgan, with persistence) behind its own link, and a simulated population, every \
            device behind its own link. With --url it attaches to another server instead. Press ? \
            in the dashboard for the keys. With --scenario FILE it plays a scenario file (its \
            population, steps and expectations; docs/scenarios.md), each step and verdict an event.
            """
    )

    @OptionGroup var population: PopulationOptions
    @OptionGroup var scenarioOption: ScenarioOption
    @OptionGroup(title: "Signing in to --url") var credentialOptions: CredentialOptions

    @Flag(
        help:
            "On a --url database not on this machine: let this device show its presence and write (under --write-path)."
    )
    var device = false

    @Option(help: "A PEM file of certificates to trust besides the system's (a corporate proxy's or a test CA).")
    var caFile: String?

    @Option(help: "Where this device's own writes go (w's notes, t's counter); needed with --device on a real project.")
    var writePath: String?

    @Option(help: "The user this device signs in as.")
    var user = "morgan"

    @OptionGroup(title: "The presence layout") var layout: LayoutOptions

    @Option(parsing: .unconditional, help: "Simulated users on the embedded server.")
    var users = 8

    @Option(parsing: .unconditional, help: "Simulated users on a --url server (none by default: it is someone else's).")
    var simulate = 0

    @Option(parsing: .unconditional, help: "Seconds between the population's scenario steps (0: a calm population).")
    var churn: Double = 4

    @Flag(help: "Keep the embedded server's data in memory.")
    var memory = false

    @Option(name: .customLong("data"), help: "The embedded server's data (default: $XDG_DATA_HOME/presencetop/server).")
    var dataDirectory: String?

    @Option(
        parsing: .unconditional,
        help: "The most bytes this device's write queue may hold; past it a write fails (default: 100 MiB).")
    var maxPendingBytes = Database.defaultMaxPendingBytes

    @Option(
        help: ArgumentHelp(
            "A standalone link's control (presencetop proxy) in front of --url: n, b and l drive it.",
            valueName: "http://HOST:PORT"))
    var proxyControl: String?

    @Option(help: "A theme's name (see themes/) or a theme file's path.")
    var theme = "default"

    @Option(
        name: .customLong(String(DatabaseArguments.carrier.dropFirst(2))), help: .hidden)
    var watchDatabase: [String] = []

    @Option(help: "Where logs go (default: $XDG_STATE_HOME/presencetop/presencetop.log).")
    var log: String?

    @Option(help: "Record presence changes and this device's connection and queue as JSON lines, with server time.")
    var record: String?

    func validate() throws {
        if memory && dataDirectory != nil { throw ValidationError("--data and --memory cannot be used together") }
        if !(0...500).contains(users) { throw ValidationError("--users must be between 0 and 500, not \(users)") }
        if !(0...500).contains(simulate) {
            throw ValidationError("--simulate must be between 0 and 500, not \(simulate)")
        }
        _ = try Self.churnRange.option(churn, "--churn")
        if let proxyControl {
            guard population.url != nil else { throw ValidationError("--proxy-control needs --url (the proxy's port)") }
            guard let url = URL(string: proxyControl), url.scheme == "http", url.host != nil, url.port != nil else {
                throw ValidationError("--proxy-control '\(proxyControl)' is not http://HOST:PORT")
            }
        }
        if maxPendingBytes < 1 {
            throw ValidationError("--max-pending-bytes must be at least 1, not \(maxPendingBytes)")
        }
        if let writePath, writePath.contains(where: { ".#$[]".contains($0) }) || writePath.utf8.count > 512 {
            throw ValidationError("--write-path '\(writePath)' is not a valid path (no . # $ [ ], at most 512 bytes)")
        }
        if population.url == nil, layout.presenceLayout != .documented {
            throw ValidationError(
                "--layout \(layout.presenceLayout) reads an app's own presence and goes with --url "
                    + "(the lab's devices write the documented layout)")
        }
        if population.url == nil, credentialOptions.isGiven || credentialOptions.asUID != nil || device {
            throw ValidationError(
                "the sign-in options and --device go with --url (the embedded server is this machine's)")
        }
        if !watchDatabase.isEmpty, population.url == nil {
            throw ValidationError("several --url: the embedded server is one database")
        }
        if watchDatabase.count >= ShardedPresence.maximumShards {
            throw ValidationError(
                "--url given \(watchDatabase.count + 1) times: at most \(ShardedPresence.maximumShards)")
        }
        if user.isEmpty || user.contains(where: { ".#$[]/".contains($0) }) {
            throw ValidationError("--user '\(user)' is not a valid key (no . # $ [ ] /)")
        }
    }

    func run() async throws {
        // The files named first: a problem with one is said before anything else.
        let scenario = try scenarioOption.load()
        let bindings: [KeyBinding]
        do {
            bindings = try Self.configuredBindings()
        } catch {
            FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var recorder: SessionRecorder?
        if let record {
            do {
                recorder = try SessionRecorder(path: record)
            } catch {
                FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        // The server and the credentials too (a key file that cannot be read, a write on someone
        // else's database): said before the screen is taken.
        var options = try options()
        try Self.requireTerminal()
        let logger = try makeLogger()
        if let scenario { options.usePopulation(of: scenario) }
        let live = try await LiveDashboard.start(options, logger: logger)
        let simulation = live.simulation
        // A scenario file is the population's script: no random churn beside it.
        let player = scenario.map { scenario in Task { _ = await simulation.play(scenario) } }
        if churn > 0, scenario == nil { simulation.startChurn(every: try Self.churnRange.option(churn, "--churn")) }
        let loop = live.loop(
            themeName: theme, catalog: .standard(), bindings: bindings, recorder: recorder, logger: logger,
            afterFrame: FrameHook.afterFrame,
            makeTerminal: { CursesTerminal(theme: $0, environment: ProcessInfo.processInfo.environment) })
        let status = await loop.run()
        recorder?.close()
        if let recorder, let failure = recorder.failure {
            FileHandle.standardError.write(
                Data(
                    "presencetop: the recording \(recorder.file) stopped early (\(failure)); it replays up to then\n"
                        .utf8))
        }
        player?.cancel()
        await Self.stop(simulation, logger: logger)
        // As a shell reports it: 130 after Ctrl-C, 143 after SIGTERM.
        if status != 0 { throw ExitCode(status) }
    }

    /// `--churn`: 0 (a calm population) up to a day between steps.
    static let churnRange = SecondsRange(0...86_400)

    /// Stops with status 2 unless stdin and stdout are a terminal that can move the cursor.
    static func requireTerminal() throws {
        guard isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 else {
            FileHandle.standardError.write(
                Data(
                    "presencetop: the dashboard needs a terminal (stdin and stdout); for a headless run use 'presencetop demo'\n"
                        .utf8))
            throw ExitCode(2)
        }
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            // Such a terminal cannot move the cursor: the screen would be one line and debris.
            FileHandle.standardError.write(
                Data(
                    "presencetop: the dashboard needs a terminal that can move the cursor (TERM=\(term.isEmpty ? "<unset>" : term)); for a line-based run use 'presencetop demo'\n"
                        .utf8))
            throw ExitCode(2)
        }
    }

    /// The options a settings file may give, by name, and whether each is a flag.
    static let configurableOptions: [String: Bool] = [
        "url": false, "user": false, "presence-path": false, "users": false, "simulate": false, "devices": false,
        "seed": false, "link": false, "heartbeat-timeout": false, "churn": false, "memory": true, "data": false,
        "theme": false, "log": false, "max-pending-bytes": false, "proxy-control": false, "credentials": false,
        "as-uid": false, "device": true, "write-path": false, "ca-file": false, "layout": false,
        "connections-child": false, "last-online-child": false, "state-child": false, "online-value": false,
        "changed-child": false,
    ]

    /// The settings file, read once for the whole run (its options before parsing, its keys when
    /// the dashboard starts): nil when there is none.
    static let settings: Result<DashboardConfig?, ConfigError> = Result {
        () throws(ConfigError) -> DashboardConfig? in
        try DashboardConfig.load(
            DashboardConfig.location(), options: configurableOptions,
            databaseOptions: Set(DatabaseArguments.scoped.map { String($0.dropFirst(2)) }))
    }

    /// The arguments the settings file gives (its theme, `[options]` and `[[database]]` tables),
    /// none without a file.
    ///
    /// - Parameter commandLineNamesADatabase: Whether the command line gives `--url`: then it
    ///   says which databases are watched, and the file's `url` and `[[database]]` tables are left out.
    /// - Throws: ``ConfigError`` naming the file, the line and the problem.
    static func configuredArguments(commandLineNamesADatabase: Bool = false) throws(ConfigError) -> [String] {
        guard var config = try settings.get() else { return [] }
        if commandLineNamesADatabase {
            config.options.removeAll { $0.name == "url" }
            config.databases = []
        }
        return (config.theme.map { ["--theme=\($0)"] } ?? []) + config.arguments + config.databaseArguments
    }

    /// The key bindings with the settings file's `[keys]` moves.
    ///
    /// - Throws: ``ConfigError`` naming the file, the line and the key.
    static func configuredBindings() throws(ConfigError) -> [KeyBinding] {
        guard let config = try settings.get() else { return KeyMap.bindings }
        return try config.bindings(file: DashboardConfig.location().path)
    }

    /// The settings file's place for a command-line error its `[options]` caused (`--users=many`),
    /// when the command line itself did not give that option: `config.toml:4: users: …`.
    static func settingsError(for message: String, commandLine: [String]) -> ConfigError? {
        guard case .success(let config?) = settings, let option = config.option(namedIn: message),
            !commandLine.contains(where: { $0 == "--\(option.name)" || $0.hasPrefix("--\(option.name)=") })
        else { return nil }
        return ConfigError(
            file: DashboardConfig.location().path, line: option.line,
            problem: "[options] \(option.name): \(message)")
    }

    private func options() throws -> SimulationOptions {
        var options = SimulationOptions()
        try population.apply(to: &options)
        options.presencePath = layout.root
        options.layout = layout.presenceLayout
        options.linkControl = proxyControl.flatMap(URL.init(string:))
        let state = Database.defaultPersistenceDirectory
        options.thisDevice = SimulationOptions.ThisDevice(
            user: user, persistenceDirectory: state, maxPendingBytes: maxPendingBytes)
        if options.layout != .documented {
            // The lab's devices write the documented layout only: in another app's tree they would
            // be entries that fit nothing.
            guard simulate == 0, !device else {
                throw ValidationError(
                    "--layout \(options.layout) only watches: --simulate and --device write the documented layout")
            }
            options.thisDevice = nil
        }
        if let url = population.url {
            let target = try SimulationFlags.target(url: url)
            options.users = simulate
            if let (provider, identity) = try credentialOptions.provider(for: target) {
                (options.credentials, options.identity) = (provider, identity)
            }
            // Someone's real database: nothing is written unless this device is asked in.
            options.readOnly = !target.isLocal && !device
            if !target.isLocal {
                if simulate > 0 {
                    throw ValidationError("--simulate writes made-up users into \(target.url): only on a local server")
                }
                if device, writePath == nil {
                    throw ValidationError("--device on \(target.url) needs --write-path: where this device's writes go")
                }
            }
            options.writePath = writePath ?? ""
            if let caFile {
                do {
                    options.transport = try WebSocketTransport.trusting(certificatesAt: caFile)
                } catch {
                    throw ValidationError("--ca-file: \(error)")
                }
            }
            // The databases after the first are watched, never written (each with its own sign-in).
            options.otherDatabases = try watchDatabase.map {
                try WatchedDatabaseOptions.watched($0, transport: options.transport)
            }
        } else {
            options.users = users
            let data =
                memory
                ? nil : dataDirectory.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultDataDirectory
            options.server = .embedded(dataDirectory: data)
            // A fresh population each run, unless --data names a folder whose users are wanted.
            options.freshPopulation = dataDirectory == nil
        }
        return options
    }

    private func makeLogger() throws -> Logger {
        let path = log ?? Database.defaultPersistenceDirectory.appendingPathComponent("presencetop.log").path
        let file: LogFile
        do {
            file = try LogFile(path: path)
        } catch {
            throw ValidationError("--log '\(path)': \(error)")
        }
        var logger = Logger(label: "presencetop") { FileLogHandler(label: $0, file: file) }
        logger.logLevel = .notice
        return logger
    }
}
