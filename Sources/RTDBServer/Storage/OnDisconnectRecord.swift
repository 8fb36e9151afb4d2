import RTDBCore
import RTDBWire

/// A session's onDisconnect writes as they are stored with the namespace's data, so that a server
/// killed before the session ends still runs them after it restarts.
///
/// The writes are kept unresolved (server values run when they fire) in firing order, with the
/// credential they will be checked with. A record with no writes stands for the removal of the
/// session's row.
public struct OnDisconnectRecord: Sendable {
    /// The session the writes belong to (its `s` in the hello, its `ls=` when it comes back).
    public var sessionID: String
    /// The session's credential when the record was made; nil when signed out.
    public var auth: AuthToken?
    /// The writes, parents before children.
    public var writes: [(path: Path, node: Node)]

    /// Makes a record.
    public init(sessionID: String, auth: AuthToken?, writes: [(path: Path, node: Node)]) {
        self.sessionID = sessionID
        self.auth = auth
        self.writes = writes
    }

    /// Whether this record removes the session's row (it has nothing left to run).
    public var isRemoval: Bool { writes.isEmpty }

    /// The credential as stored: `{"claims": …, "admin": …}`, or nil.
    public var authText: String? {
        auth.map { JSONValue.object(["claims": $0.claims, "admin": .bool($0.isAdmin)]).jsonString }
    }

    /// The writes as stored: a JSON array of `[path, data]` pairs, data in export format.
    public var writesText: String {
        JSONValue.array(writes.map { .array([.string($0.path.relativeString), $0.node.exportJSON]) }).jsonString
    }

    /// Reads a record back from its stored form.
    ///
    /// - Throws: When the stored text is not what ``authText`` and ``writesText`` make.
    public init(sessionID: String, authText: String?, writesText: String) throws {
        self.sessionID = sessionID
        if let authText {
            let json = try JSONParser.parse(authText)
            auth = AuthToken(claims: json["claims"] ?? .null, isAdmin: json["admin"]?.boolValue ?? false)
        }
        var writes: [(path: Path, node: Node)] = []
        for pair in try JSONParser.parse(writesText).arrayValue ?? [] {
            guard let elements = pair.arrayValue, elements.count == 2, let text = elements[0].stringValue else {
                throw OnDisconnectRecordError(sessionID: sessionID)
            }
            let path = Path(text)
            writes.append((path, try Node(json: elements[1], at: path.writeTarget)))
        }
        self.writes = writes
    }
}

/// A stored onDisconnect row that cannot be read back.
public struct OnDisconnectRecordError: Error, CustomStringConvertible {
    /// The session of the row.
    public var sessionID: String

    /// A message naming the row.
    public var description: String { "the stored onDisconnect writes of session \(sessionID) are malformed" }
}
