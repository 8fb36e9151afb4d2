import PresenceModel
import RTDBCore

/// One watched database's connection, when several are watched as one directory: where it is,
/// as whom, and what its watcher has heard.
public struct WatchedFeed: Sendable, Equatable {
    /// The database (`127.0.0.1:9000 ns=a`, or its URL).
    public var name: String
    /// Who its watcher is signed in as, in words.
    public var identity: String

    /// The identity of a watcher with the lab's own emulator-style token (no credential given).
    public static let emulatorIdentity = "emulator user"
    /// Its watcher's connection.
    public var status: ConnectionStatus
    /// Whether its first list has been read.
    public var listLoaded: Bool
    /// How many users it lists.
    public var users: Int
    /// Why its server refused the list (its rules), if it did.
    public var refusal: String?

    /// Makes a feed.
    public init(
        name: String, identity: String, status: ConnectionStatus, listLoaded: Bool, users: Int,
        refusal: String? = nil
    ) {
        self.refusal = refusal
        self.name = name
        self.identity = identity
        self.status = status
        self.listLoaded = listLoaded
        self.users = users
    }
}
