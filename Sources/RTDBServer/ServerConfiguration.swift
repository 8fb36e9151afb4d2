import Foundation
import RTDBRules

/// How `presencetop serve` runs.
public struct ServerConfiguration: Sendable {
    /// The address to bind.
    public var host: String
    /// The port to bind; 0 lets the system choose.
    public var port: Int
    /// Where namespaces are stored, one SQLite file each; nil keeps everything in memory.
    public var dataDirectory: URL?
    /// The namespace used when a request names none.
    public var defaultNamespace: String
    /// A connection silent for this long is closed and its onDisconnect writes run.
    public var heartbeatTimeout: Duration
    /// The largest WebSocket frame accepted; a larger one closes that connection.
    public var maxFrameBytes: Int
    /// The largest write over WebSocket (16 MB, as Firebase): larger requests get `too_big`.
    public var maxWebSocketWriteBytes: Int
    /// The largest REST request body (256 MB, as Firebase): larger ones get 413.
    public var maxRESTBodyBytes: Int
    /// How often SSE streams send `keep-alive`.
    public var streamKeepAliveInterval: Duration
    /// After this many logged writes a namespace compacts its log into a snapshot.
    public var checkpointInterval: Int
    /// A PEM certificate chain and private key: serve `https://` and `wss://` instead.
    public var tls: (certificatePath: String, keyPath: String)?
    /// Refuse credentials whose `exp` has passed (`expired_token`); emulators accept them.
    public var enforcesTokenExpiry = false
    /// The HS256 secret ID tokens must be signed with (and the admin credential); nil reads
    /// credentials as the emulator does (``CredentialPolicy``).
    public var authSecret: String?

    /// How credentials are read, from ``authSecret`` and ``enforcesTokenExpiry``.
    public var credentialPolicy: CredentialPolicy {
        CredentialPolicy(secret: authSecret, enforcesExpiry: enforcesTokenExpiry)
    }
    /// The security rules of every namespace when it opens (open rules unless given; each
    /// namespace's can then be replaced at `/.settings/rules.json`).
    public var rules: SecurityRules = .open
    /// Whether SIGINT and SIGTERM stop the server (a server embedded in a program that handles
    /// its own signals sets this false, and stops it by cancelling its task).
    public var stopsOnSignals = true
    /// What one client may ask at once (``ConnectionLimits``).
    public var limits = ConnectionLimits()
    /// How many namespaces may be open at once.
    ///
    /// Past it the least recently used idle one is closed (it opens again on its next use). Each open namespace with data holds three file
    /// descriptors (the SQLite file, its WAL and shared memory).
    public var maxOpenNamespaces = 64
    /// Where `GET /metrics` is also served, apart and without a credential
    /// (`--metrics-listen HOST:PORT`); nil: only on the server's own port.
    public var metricsAddress: (host: String, port: Int)?
    /// Another server's `host:port` to send every WebSocket client to, as Firebase does when it
    /// moves a database: each connection gets a reset (`t: r`) naming it, and nothing else.
    public var redirectHost: String?
    /// The host the handshake names (`h`) for later connections, as a Firebase shard names
    /// itself; nil: the host the client asked for.
    public var advertisedHost: String?

    /// Makes a configuration; the defaults match `presencetop serve` without options.
    public init(
        host: String = "127.0.0.1", port: Int = 9000, dataDirectory: URL? = ServerConfiguration.defaultDataDirectory,
        defaultNamespace: String = "demo", heartbeatTimeout: Duration = .seconds(15),
        maxFrameBytes: Int = 1 << 20, maxWebSocketWriteBytes: Int = 16 * 1024 * 1024,
        maxRESTBodyBytes: Int = 256 * 1024 * 1024, streamKeepAliveInterval: Duration = .seconds(30),
        checkpointInterval: Int = 50_000
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.defaultNamespace = defaultNamespace
        self.heartbeatTimeout = heartbeatTimeout
        self.maxFrameBytes = maxFrameBytes
        self.maxWebSocketWriteBytes = maxWebSocketWriteBytes
        self.maxRESTBodyBytes = maxRESTBodyBytes
        self.streamKeepAliveInterval = streamKeepAliveInterval
        self.checkpointInterval = checkpointInterval
    }

    /// `$XDG_DATA_HOME/presencetop/server`, or `~/.local/share/presencetop/server`.
    public static var defaultDataDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("presencetop/server")
    }

    /// Whether a namespace name is acceptable: 1–63 lowercase letters, digits or hyphens (it
    /// names a file).
    public static func isValidNamespace(_ name: String) -> Bool {
        (1...63).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }
}
