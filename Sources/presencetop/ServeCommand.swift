import ArgumentParser
import Foundation
import Logging
import Presence
import PresenceLab
import RTDBCore
import RTDBRules
import RTDBServer

/// `presencetop serve`: runs the Firebase-compatible server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Realtime Database server (WebSocket protocol v5 and REST on one port).",
        discussion: """
            Prints one line, 'listening on http://HOST:PORT', once it accepts connections; logs go \
            to stderr. Data is kept durably in one SQLite file per namespace. SIGINT or SIGTERM \
            stops it after in-flight writes are on disk. Without --rules every request is allowed, as \
            in the emulator; the admin credential ('owner') is never subject to rules.
            """
    )

    @Option(
        help: """
            The address to bind. Without --auth-secret the server is an emulator: anyone who can \
            reach the port is admin ('owner') and reads and writes everything, so bind anything \
            but loopback only with --auth-secret.
            """)
    var host = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one.")
    var port = 9000

    @Option(name: .customLong("data"), help: "Where to keep the data (default: $XDG_DATA_HOME/presencetop/server).")
    var dataDirectory: String?

    @Flag(help: "Keep everything in memory; nothing survives a restart.")
    var memory = false

    @Option(help: "The namespace used when a request names none.")
    var namespace = "demo"

    @Option(help: "Seconds of silence after which a connection is closed and its onDisconnect writes run.")
    var heartbeatTimeout: Double = 15

    @Option(help: "Seconds between keep-alive events on REST streaming (SSE) connections.")
    var streamKeepalive: Double = 30

    @Option(help: "A PEM certificate chain: serve https:// and wss:// (with --tls-key).")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(
        help: "Security rules: a Firebase rules JSON file (comments allowed). Without it, every request is allowed.")
    var rules: String?

    @Option(
        help: """
            Verify ID tokens: HS256 signatures with this secret and expiry are enforced, and the \
            secret itself (not 'owner') is the admin credential. On the command line every local \
            user reads it (ps, /proc): prefer --auth-secret-file or PRESENCETOP_AUTH_SECRET.
            """)
    var authSecret: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is --auth-secret's secret, kept out of ps (or set PRESENCETOP_AUTH_SECRET).",
            valueName: "file"))
    var authSecretFile: String?

    @Option(
        help: ArgumentHelp(
            "Also serve GET /metrics here, without a credential (loopback unless a host is given; PORT alone is 127.0.0.1:PORT).",
            valueName: "host:port"))
    var metricsListen: String?

    @Flag(help: "Print the presence rules presencetop ships (for --rules) and exit.")
    var printPresenceRules = false

    @Flag(help: "Refuse credentials whose exp has passed (expired_token); emulators accept them.")
    var enforceTokenExpiry = false

    @Option(
        help:
            "How many namespaces may be open at once; past it the least recently used idle one is closed (each holds 3 file descriptors)."
    )
    var maxOpenNamespaces = 64

    @Option(
        help:
            "Requests one connection may have waiting for its namespace; past it the server reads that connection no further until it catches up."
    )
    var maxOutstandingRequests = ConnectionLimits().outstandingRequests

    @Option(
        help:
            "Messages one connection may send per second on average; past it the server reads it more slowly and tells it once."
    )
    var maxMessagesPerSecond = ConnectionLimits().messagesPerSecond

    @Option(help: "Listens one connection may hold; more are refused with limit_exceeded.")
    var maxListens = ConnectionLimits().listensPerConnection

    @Option(help: "WebSocket sessions one namespace may hold; more are told to try again later (close 1013).")
    var maxSessionsPerNamespace = ConnectionLimits().sessionsPerNamespace

    @Option(
        help: ArgumentHelp(
            "Send every WebSocket client to another server at once, as Firebase does when it moves a database (a reset naming it).",
            valueName: "HOST:PORT"))
    var redirect: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: LogLevel = .notice

    /// The chaos lab's disk switch (SIGUSR1 full, SIGUSR2 room again); not for users.
    @Flag(help: .hidden)
    var labDiskFaults = false

    func validate() throws {
        if memory && dataDirectory != nil { throw ValidationError("--data and --memory cannot be used together") }
        if let metricsListen { _ = try Self.metricsAddress(metricsListen) }
        if authSecret != nil, authSecretFile != nil {
            throw ValidationError("--auth-secret and --auth-secret-file cannot be used together")
        }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
        _ = try SecondsRange.interval.option(heartbeatTimeout, "--heartbeat-timeout")
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        _ = try SecondsRange.interval.option(streamKeepalive, "--stream-keepalive")
        if maxOpenNamespaces < 1 { throw ValidationError("--max-open-namespaces must be at least 1") }
        for (name, value) in [
            ("--max-outstanding-requests", maxOutstandingRequests), ("--max-messages-per-second", maxMessagesPerSecond),
            ("--max-listens", maxListens), ("--max-sessions-per-namespace", maxSessionsPerNamespace),
        ] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        if !ServerConfiguration.isValidNamespace(namespace) {
            throw ValidationError("--namespace '\(namespace)': use 1-63 lowercase letters, digits or hyphens")
        }
    }

    func run() async throws {
        if printPresenceRules {
            FileHandle.standardOutput.write(Data(PresenceRules.text.utf8))
            return
        }
        var logger = Logger(label: "presencetop.server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.level
        var configuration = ServerConfiguration(host: host, port: port, defaultNamespace: namespace)
        configuration.heartbeatTimeout = try SecondsRange.interval.option(heartbeatTimeout, "--heartbeat-timeout")
        configuration.streamKeepAliveInterval = try SecondsRange.interval.option(streamKeepalive, "--stream-keepalive")
        configuration.enforcesTokenExpiry = enforceTokenExpiry
        configuration.maxOpenNamespaces = maxOpenNamespaces
        configuration.limits.outstandingRequests = maxOutstandingRequests
        configuration.limits.messagesPerSecond = maxMessagesPerSecond
        configuration.limits.listensPerConnection = maxListens
        configuration.limits.sessionsPerNamespace = maxSessionsPerNamespace
        configuration.authSecret = try secret()
        configuration.metricsAddress = try metricsListen.map(Self.metricsAddress)
        configuration.redirectHost = redirect
        if memory {
            configuration.dataDirectory = nil
        } else if let dataDirectory {
            configuration.dataDirectory = URL(fileURLWithPath: dataDirectory)
        }
        if let tlsCert, let tlsKey { configuration.tls = (tlsCert, tlsKey) }
        // A full disk (or a file size limit) fails the write with an error the engine reports,
        // instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        if let rules { configuration.rules = try Self.loadRules(rules) }
        if let folder = configuration.dataDirectory { Self.sayFreeSpace(of: folder, logger: logger) }
        var lab: [any Sendable]?
        if labDiskFaults, let folder = configuration.dataDirectory {
            lab = try await Self.labDiskFaults(folder: folder, logger: logger)
        }
        if configuration.authSecret == nil, !Self.isLoopback(host) { Self.warnOpenToAll(host: host, port: port) }
        let scheme = configuration.tls == nil ? "http" : "https"
        let server = RTDBServer(configuration: configuration, logger: logger)
        try await server.run { host, port in
            // One line, flushed at once: scripts and tests wait for it.
            FileHandle.standardOutput.write(Data("listening on \(scheme)://\(host):\(port)\n".utf8))
        } onMetricsListening: { host, port in
            Self.sayMetricsListening(host: host, port: port, command: "serve")
        }
        withExtendedLifetime(lab) {}
    }
}

extension ServeCommand {
    /// Reads and checks a rules file; a problem is printed as `FILE:LINE:COLUMN: message` and the
    /// server does not start (exit status 2).
    static func loadRules(_ path: String) throws -> SecurityRules {
        let text: String
        do {
            text = try TextFile.text(at: path)
        } catch {
            FileHandle.standardError.write(Data("presencetop: the rules file \(error)\n".utf8))
            throw ExitCode(2)
        }
        do {
            return try SecurityRules(text: text, file: path)
        } catch {
            FileHandle.standardError.write(Data("presencetop: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

extension ServeCommand {
    /// Whether `host` is a loopback address (only this machine reaches it).
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// Says how much room the data folder's file system has (the nearest folder that exists).
    static func sayFreeSpace(of folder: URL, logger: Logger) {
        var existing = folder
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            existing.deleteLastPathComponent()
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: existing.path),
            let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value
        else { return }
        let megabytes = Double(free) / 1_048_576
        logger.notice(
            "data folder \(folder.path): \(megabytes < 10 ? String(format: "%.1f", megabytes) : String(Int(megabytes))) MB free"
        )
        if free < 64 * 1_048_576 {
            logger.warning(
                "data folder \(folder.path) has under 64 MB free: once it is full, writes wait unacknowledged until there is room"
            )
        }
    }

    /// Says on stderr, in words an operator cannot miss, that every client is admin.
    static func warnOpenToAll(host: String, port: Int) {
        let lines = [
            "WARNING: serving on \(host) without --auth-secret.",
            "WARNING: Anyone who can reach port \(port) is admin (the emulator's 'owner' credential):",
            "WARNING: they read and write everything, and security rules do not apply to them.",
            "WARNING: Give --auth-secret SECRET, or bind 127.0.0.1 (the default).",
        ]
        FileHandle.standardError.write(Data(lines.map { "presencetop: \($0)\n" }.joined().utf8))
    }
}

/// The `--log-level` values.
enum LogLevel: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .notice }
}
