import OrderedCollections
import RTDBCore

/// A message the server sends without a request (`{"t":"d","d":{"a":action,"b":body}}`,
/// docs/wire-protocol.md#pushes).
public enum ServerPush: Sendable, Hashable {
    /// `d`: the data at `path` is now `data`; a tagged push targets one query view.
    case data(path: Path, data: JSONValue, tag: Int?)
    /// `d` as ``WireMessage/dataPush(inText:)`` reads it: the data already a node.
    case dataNode(path: Path, node: Node, tag: Int?)
    /// `m`: each relative path in `data` now holds its value (null removes).
    case merge(path: Path, data: JSONValue.Members, tag: Int?)
    /// `c`: a listen was revoked; `query` targets one tagged query for the JS SDK.
    case listenRevoked(path: Path, query: JSONValue?)
    /// `ac`: the connection's credential was revoked or expired.
    case authRevoked(status: WireStatus, reason: String)
    /// `apc`: the App Check token was revoked.
    case appCheckRevoked(status: WireStatus, reason: String)
    /// `sd`: a security debug message.
    case securityDebug(String)

    /// The action name sent as `a`.
    public var action: String {
        switch self {
        case .data, .dataNode: return "d"
        case .merge: return "m"
        case .listenRevoked: return "c"
        case .authRevoked: return "ac"
        case .appCheckRevoked: return "apc"
        case .securityDebug: return "sd"
        }
    }

    /// The body sent as `b`.
    public var body: JSONValue {
        switch self {
        case .data(let path, let data, let tag):
            var members: JSONValue.Members = ["p": .string(path.description), "d": data]
            if let tag { members["t"] = .int(Int64(tag)) }
            return .object(members)
        case .dataNode(let path, let node, let tag):
            return ServerPush.data(path: path, data: node.exportJSON, tag: tag).body
        case .merge(let path, let data, let tag):
            var members: JSONValue.Members = ["p": .string(path.description), "d": .object(data)]
            if let tag { members["t"] = .int(Int64(tag)) }
            return .object(members)
        case .listenRevoked(let path, let query):
            var members: JSONValue.Members = ["p": .string(path.description)]
            if let query { members["q"] = [query] }
            return .object(members)
        case .authRevoked(let status, let reason), .appCheckRevoked(let status, let reason):
            return ["s": .string(status.rawValue), "d": .string(reason)]
        case .securityDebug(let message):
            return ["msg": .string(message)]
        }
    }

    /// Reads a push from its action and body.
    public init(action: String, body: JSONValue) throws(WireError) {
        let tag = body["t"]?.intValue.flatMap { Int(exactly: $0) }
        let path = Path(body["p"]?.stringValue ?? "")
        switch action {
        case "d":
            self = .data(path: path, data: body["d"] ?? .null, tag: tag)
        case "m":
            self = .merge(path: path, data: body["d"]?.objectValue ?? [:], tag: tag)
        case "c":
            self = .listenRevoked(path: path, query: body["q"]?.arrayValue?.first)
        case "ac":
            self = .authRevoked(
                status: WireStatus(rawValue: body["s"]?.stringValue ?? ""), reason: body["d"]?.stringValue ?? "")
        case "apc":
            self = .appCheckRevoked(
                status: WireStatus(rawValue: body["s"]?.stringValue ?? ""), reason: body["d"]?.stringValue ?? "")
        case "sd":
            self = .securityDebug(body["msg"]?.stringValue ?? "")
        default:
            throw WireError(status: .unknownAction, message: "unknown push action '\(action)'")
        }
    }
}
