import GRDB
import RTDBCore

/// A queued write as stored: its data keeps server values unresolved.
///
/// A write restored from disk keeps its data as the stored text until something needs it as
/// JSON: a restart replays thousands of writes, and most of them are neither read nor sent
/// before the first events.
struct StoredWrite: Sendable, Equatable {
    var id: Int
    var kind: PendingWrite.Kind
    var path: Path
    private var payload: Payload
    /// A named transaction's name.
    var name: String?
    var enqueuedAt: UnixTime
    var attempts: Int

    private enum Payload: Sendable {
        case json(JSONValue)
        /// Read from disk: checked to be one JSON document before it is sent.
        case text(DeferredJSON)
        /// A node's export made here (``Node/exportJSONString``): sent as it is.
        case exported(DeferredJSON)
    }

    /// The data: a node's export JSON (set, remove), relative path → value (update), a named
    /// transaction's state, or null (other transactions).
    var data: JSONValue {
        get {
            switch payload {
            case .json(let json): return json
            case .text(let deferred), .exported(let deferred): return deferred.json
            }
        }
        set { payload = .json(newValue) }
    }

    /// The data as JSON text (as stored).
    var dataText: String {
        switch payload {
        case .json(let json): return json.jsonString
        case .text(let deferred), .exported(let deferred): return deferred.text
        }
    }

    /// The data as a put carries it: a write read from disk goes out as its stored text, with no
    /// parse and no export, once it is checked to be one JSON document (an object for an update);
    /// nil when it is not (the file was edited), for the write to be dropped rather than sent as
    /// something it never was.
    var putData: PutData? {
        switch payload {
        case .json: return .json { [self] in data }
        case .exported(let deferred): return .checkedText(deferred.text)
        case .text(let deferred):
            guard JSONParser.isDocument(deferred.text, object: kind == .update) else { return nil }
            return .checkedText(deferred.text)
        }
    }

    /// A set's data as a node, unparsed until looked into when it was read from disk.
    var setNode: Node {
        switch payload {
        case .json(let json): return Node(trustedJSON: json)
        case .text(let deferred), .exported(let deferred): return Node(deferredJSON: deferred.text)
        }
    }

    init(row: Row) throws {
        id = row["id"]
        kind = PendingWrite.Kind(rawValue: row["kind"]) ?? .set
        path = Path(row["path"] as String)
        payload = .json(try JSONParser.parse(row["data"] as String))
        name = row["name"]
        enqueuedAt = UnixTime(millisecondsSince1970: row["enqueued_at"])
        attempts = row["attempts"]
    }

    init(
        id: Int, kind: PendingWrite.Kind, path: Path, data: JSONValue, name: String? = nil, enqueuedAt: UnixTime,
        attempts: Int = 0
    ) {
        self.init(
            id: id, kind: kind, path: path, payload: .json(data), name: name, enqueuedAt: enqueuedAt,
            attempts: attempts)
    }

    /// A set or remove of `node`, its data the node's export text (made once: it is what the
    /// queue stores and counts, and what the request carries).
    init(id: Int, kind: PendingWrite.Kind, path: Path, node: Node, enqueuedAt: UnixTime) {
        self.init(
            id: id, kind: kind, path: path, payload: .exported(DeferredJSON(node.exportJSONString)), name: nil,
            enqueuedAt: enqueuedAt, attempts: 0)
    }

    /// A write read from disk, its data left as text.
    init(
        id: Int, kind: PendingWrite.Kind, path: Path, dataText: String, name: String?, enqueuedAt: UnixTime,
        attempts: Int
    ) {
        self.init(
            id: id, kind: kind, path: path, payload: .text(DeferredJSON(dataText)), name: name,
            enqueuedAt: enqueuedAt, attempts: attempts)
    }

    private init(
        id: Int, kind: PendingWrite.Kind, path: Path, payload: Payload, name: String?, enqueuedAt: UnixTime,
        attempts: Int
    ) {
        self.id = id
        self.kind = kind
        self.path = path
        self.payload = payload
        self.name = name
        self.enqueuedAt = enqueuedAt
        self.attempts = attempts
    }

    static func == (lhs: StoredWrite, rhs: StoredWrite) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.name == rhs.name
            && lhs.enqueuedAt == rhs.enqueuedAt && lhs.attempts == rhs.attempts && lhs.data == rhs.data
    }
}
