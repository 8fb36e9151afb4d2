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

    @OptionGroup var session: SessionOptions
    @OptionGroup var scenarioOption: ScenarioOption

    @Option(help: "A theme's name (see themes/) or a theme file's path.")
    var theme = "default"

    @Option(help: "Record presence changes and this device's connection and queue as JSON lines, with server time.")
    var record: String?

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
        var options = try session.simulationOptions()
        try Self.requireTerminal()
        let logger = try makeLogger()
        if let scenario { options.usePopulation(of: scenario) }
        let live = try await LiveDashboard.start(options, logger: logger)
        let simulation = live.simulation
        // A scenario file is the population's script: no random churn beside it.
        let player = scenario.map { scenario in Task { _ = await simulation.play(scenario) } }
        if session.churn > 0, scenario == nil {
            simulation.startChurn(every: try SessionOptions.churnRange.option(session.churn, "--churn"))
        }
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
    /// - Parameters:
    ///   - commandLineNamesADatabase: Whether the command line gives `--url`: then it says which
    ///     databases are watched, and the file's `url` and `[[database]]` tables are left out.
    ///   - withTheme: Whether the file's theme is wanted (the dashboard's; `watch` draws nothing).
    /// - Throws: ``ConfigError`` naming the file, the line and the problem.
    static func configuredArguments(
        commandLineNamesADatabase: Bool = false, withTheme: Bool = true
    ) throws(ConfigError) -> [String] {
        guard var config = try settings.get() else { return [] }
        if commandLineNamesADatabase {
            config.options.removeAll { $0.name == "url" }
            config.databases = []
        }
        let theme = withTheme ? config.theme.map { ["--theme=\($0)"] } ?? [] : []
        let options = config.arguments.filter { withTheme || !($0 == "--theme" || $0.hasPrefix("--theme=")) }
        return theme + options + config.databaseArguments
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

    private func makeLogger() throws -> Logger {
        try SessionOptions.fileLogger(
            session.log ?? Database.defaultPersistenceDirectory.appendingPathComponent("presencetop.log").path,
            label: "presencetop")
    }
}
