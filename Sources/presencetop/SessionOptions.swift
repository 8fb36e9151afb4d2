import ArgumentParser
import Foundation
import Logging
import Presence
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBServer

/// The options of a session over a live engine, shared by the dashboard and `presencetop watch`:
/// the server (embedded, or `--url` several times), how to sign in to each database, the
/// presence layout, the population, this device and its queue.
///
/// One declaration, one home for each check: what the dashboard accepts, the watch accepts.
struct SessionOptions: ParsableArguments {
    @OptionGroup var population: PopulationOptions
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

    @Option(
        name: .customLong(String(DatabaseArguments.carrier.dropFirst(2))), help: .hidden)
    var watchDatabase: [String] = []

    @Option(help: "Where logs go (default: $XDG_STATE_HOME/presencetop/presencetop.log).")
    var log: String?

    /// `--churn`: 0 (a calm population) up to a day between steps.
    static let churnRange = SecondsRange(0...86_400)

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
        if let writePath { try DatabaseOption.path(writePath, "--write-path", writable: true) }
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
        try DatabaseOption.key(user, "--user")
    }

    /// The simulation these options describe (the server, the population, this device, the
    /// databases watched and how to sign in to each).
    ///
    /// - Throws: `ValidationError` naming the option and the problem (a key file that cannot be
    ///   read, a write on someone else's database).
    func simulationOptions() throws -> SimulationOptions {
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

    /// A logger writing notices and worse to the file at `path` (`--log`).
    ///
    /// - Throws: `ValidationError` naming `--log`, the path and why it cannot be written.
    static func fileLogger(_ path: String, label: String) throws -> Logger {
        let file: LogFile
        do {
            file = try LogFile(path: path)
        } catch {
            throw ValidationError("--log '\(path)': \(error)")
        }
        var logger = Logger(label: label) { FileLogHandler(label: $0, file: file) }
        logger.logLevel = .notice
        return logger
    }
}
