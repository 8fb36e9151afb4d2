import Foundation
import RTDBCore
import Synchronization

/// What the server knows about one live connection, for the dashboard and the admin endpoint.
public struct ConnectionInfo: Sendable, Hashable, Codable {
    /// The session id sent in the hello.
    public var sessionID: String
    /// The namespace (database) the connection uses.
    public var namespace: String
    /// The peer's address, `host:port`.
    public var peerAddress: String
    /// The authenticated user id, if any; `owner` for admin.
    public var authUID: String?
    /// When the connection opened.
    public var connectedAt: UnixTime
    /// When the last message arrived from it.
    public var lastHeardAt: UnixTime
    /// How many onDisconnect writes it has registered.
    public var onDisconnectCount: Int
    /// How many listens it has.
    public var listenCount: Int

    /// The connection as a JSON object.
    public var json: JSONValue {
        [
            "sessionId": .string(sessionID), "namespace": .string(namespace), "peer": .string(peerAddress),
            "uid": authUID.map { .string($0) } ?? .null, "connectedAt": .int(connectedAt.millisecondsSince1970),
            "lastHeardAt": .int(lastHeardAt.millisecondsSince1970), "onDisconnectOps": .int(Int64(onDisconnectCount)),
            "listens": .int(Int64(listenCount)),
        ]
    }
}

/// The server's live connections, safe to read from any thread.
public final class ConnectionTable: Sendable {
    private let state = Mutex<[String: ConnectionInfo]>([:])

    /// Signalled after every change to the table: what a test or a tool waits on.
    public let changes = ChangeSignal()

    /// Makes an empty table.
    public init() {}

    /// Every live connection, oldest first.
    public var connections: [ConnectionInfo] {
        state.withLock { Array($0.values) }.sorted { ($0.connectedAt, $0.sessionID) < ($1.connectedAt, $1.sessionID) }
    }

    /// The connection with a session id.
    public subscript(sessionID: String) -> ConnectionInfo? {
        state.withLock { $0[sessionID] }
    }

    func insert(_ info: ConnectionInfo) {
        state.withLock { $0[info.sessionID] = info }
        changes.signal()
    }

    func remove(_ sessionID: String) {
        state.withLock { _ = $0.removeValue(forKey: sessionID) }
        changes.signal()
    }

    func update(_ sessionID: String, _ body: (inout ConnectionInfo) -> Void) {
        state.withLock { table in
            if var info = table[sessionID] {
                body(&info)
                table[sessionID] = info
            }
        }
        changes.signal()
    }
}
