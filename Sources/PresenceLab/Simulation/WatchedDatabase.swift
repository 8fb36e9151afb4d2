import Presence
import RTDBClient
import WatchModel

/// A database the dashboard watches beside the first (a shard of a sharded app), only read.
///
/// Where it is, how the watcher signs in, and how its presence tree is laid out.
public struct WatchedDatabase: Sendable {
    /// The server.
    public var target: ServerTarget
    /// Where the watcher's credentials come from; nil: an emulator-style token (a local server).
    public var credentials: (any DatabaseTokenProvider)?
    /// Who the watcher is signed in as, in words (never the credential).
    public var identity: String
    /// Where the presence tree lives.
    public var presencePath: String
    /// How the presence tree is laid out.
    public var layout: PresenceLayout
    /// How the watcher reaches the server (`--ca-file` adds a root).
    public var transport: any Transport

    /// Makes a watched database.
    public init(
        target: ServerTarget, credentials: (any DatabaseTokenProvider)? = nil,
        identity: String = WatchedFeed.emulatorIdentity,
        presencePath: String = "users", layout: PresenceLayout = .documented,
        transport: any Transport = WebSocketTransport()
    ) {
        self.target = target
        self.credentials = credentials
        self.identity = identity
        self.presencePath = presencePath
        self.layout = layout
        self.transport = transport
    }
}
