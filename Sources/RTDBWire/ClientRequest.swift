import OrderedCollections
import RTDBCore

/// A request a client sends (`{"t":"d","d":{"r":N,"a":action,"b":body}}`,
/// docs/wire-protocol.md#requests), typed.
public enum ClientRequest: Sendable, Hashable {
    /// `q`: listen at a path, optionally for a tagged query, with the hash of the client's cache.
    case listen(path: Path, query: QueryParams, tag: Int?, hash: String)
    /// `n`: stop listening.
    case unlisten(path: Path, query: QueryParams, tag: Int?)
    /// `p`: set (null removes); with `hash`, only if the current data has that hash.
    ///
    /// `idempotencyKey` (body field `ik`, our extension) makes a re-sent write apply once.
    case put(path: Path, data: JSONValue, hash: String?, idempotencyKey: String? = nil)
    /// `m`: update several relative paths at once (`idempotencyKey` as for `put`).
    case merge(path: Path, data: JSONValue.Members, idempotencyKey: String? = nil)
    /// `o`: set when this connection ends.
    case onDisconnectPut(path: Path, data: JSONValue)
    /// `om`: update when this connection ends.
    case onDisconnectMerge(path: Path, data: JSONValue.Members)
    /// `oc`: cancel the onDisconnect operations at and below a path.
    case onDisconnectCancel(path: Path)
    /// `g`: read once.
    case get(path: Path, query: QueryParams)
    /// `auth`: authenticate with an ID token or emulator JWT.
    case auth(credential: String, authVariable: JSONValue?)
    /// `gauth`: authenticate with an OAuth access token, or `owner` for admin.
    case gauth(credential: String, authVariable: JSONValue?)
    /// `unauth`: become unauthenticated.
    case unauth
    /// `s`: usage counters.
    case stats(JSONValue)
    /// `appcheck`: an App Check token.
    case appCheck(token: String)
    /// `unappcheck` (or the JS spelling `unappeck`).
    case unappCheck
    /// `odr`: asks whether this connection's onDisconnect writes would run now, under the rules
    /// and the identity they run as (our extension; official clients never send it). The answer
    /// is an ``OnDisconnectDryRun``'s JSON.
    case onDisconnectDryRun

    /// Reads a request body for an action as it was sent (`a`).
    ///
    /// - Throws: ``WireError`` with `unknown_action`, `invalid_request`, `invalid_path` or
    ///   `invalid_query`, naming the problem.
    public init(action name: String, body: JSONValue) throws(WireError) {
        guard let action = Action(wireName: name) else {
            throw WireError(status: .unknownAction, message: "unknown action '\(name)'")
        }
        try self.init(action: action, body: body)
    }

    /// Reads a request body for an action.
    ///
    /// - Throws: ``WireError`` with `invalid_request`, `invalid_path` or `invalid_query`, naming
    ///   the problem.
    public init(action: Action, body: JSONValue) throws(WireError) {
        switch action {
        case .listen:
            let (query, tag) = try ClientRequest.query(body)
            self = .listen(
                path: try ClientRequest.path(body), query: query, tag: tag, hash: body["h"]?.stringValue ?? "")
        case .unlisten:
            let (query, tag) = try ClientRequest.query(body)
            self = .unlisten(path: try ClientRequest.path(body), query: query, tag: tag)
        case .put:
            let hash: String?
            switch body["h"] {
            case nil, .null?: hash = nil
            case .string(let string)?: hash = string
            default: throw .invalidRequest("'h' must be a string")
            }
            self = .put(
                path: try ClientRequest.path(body), data: body["d"] ?? .null, hash: hash,
                idempotencyKey: try ClientRequest.idempotencyKey(body))
        case .merge:
            self = .merge(
                path: try ClientRequest.path(body), data: try ClientRequest.mergeData(body),
                idempotencyKey: try ClientRequest.idempotencyKey(body))
        case .onDisconnectPut:
            self = .onDisconnectPut(path: try ClientRequest.path(body), data: body["d"] ?? .null)
        case .onDisconnectMerge:
            self = .onDisconnectMerge(path: try ClientRequest.path(body), data: try ClientRequest.mergeData(body))
        case .onDisconnectCancel:
            self = .onDisconnectCancel(path: try ClientRequest.path(body))
        case .get:
            self = .get(path: try ClientRequest.path(body), query: try ClientRequest.query(body).query)
        case .auth, .gauth:
            guard case .string(let credential)? = body["cred"] else { throw .invalidRequest("'cred' must be a string") }
            let authVariable = body["authvar"]
            self =
                action == .auth
                ? .auth(credential: credential, authVariable: authVariable)
                : .gauth(credential: credential, authVariable: authVariable)
        case .unauth:
            self = .unauth
        case .stats:
            self = .stats(body["c"] ?? .null)
        case .appCheck:
            self = .appCheck(token: body["token"]?.stringValue ?? "")
        case .unappCheck:
            self = .unappCheck
        case .onDisconnectDryRun:
            self = .onDisconnectDryRun
        }
    }

    /// The longest idempotency key accepted (an instance id and a write id fit easily).
    public static let maxIdempotencyKeyLength = 128

    private static func idempotencyKey(_ body: JSONValue) throws(WireError) -> String? {
        switch body["ik"] {
        case nil, .null?:
            return nil
        case .string(let key)? where !key.isEmpty && key.utf8.count <= maxIdempotencyKeyLength:
            return key
        default:
            throw .invalidRequest("'ik' must be a string of 1 to \(maxIdempotencyKeyLength) bytes")
        }
    }

    private static func path(_ body: JSONValue) throws(WireError) -> Path {
        guard case .string(let string)? = body["p"] else { throw .invalidRequest("'p' must be a path string") }
        let path = Path(string)
        do {
            try Validation.validatePath(path.writeTarget)
        } catch {
            throw WireError(error)
        }
        return path
    }

    private static func query(_ body: JSONValue) throws(WireError) -> (query: QueryParams, tag: Int?) {
        var query = QueryParams.default
        switch body["q"] {
        case nil, .null?: break
        case let object?:
            do {
                query = try QueryParams(wireObject: object)
            } catch {
                throw WireError(error)
            }
        }
        switch body["t"] {
        case nil, .null?: return (query, nil)
        case .number(let number)?:
            guard let tag = number.exactInt, let int = Int(exactly: tag) else {
                throw .invalidRequest("'t' must be an integer tag")
            }
            return (query, int)
        default:
            throw .invalidRequest("'t' must be an integer tag")
        }
    }

    private static func mergeData(_ body: JSONValue) throws(WireError) -> JSONValue.Members {
        switch body["d"] {
        case .object(let members)?: return members
        case nil, .null?: return [:]
        default: throw .invalidRequest("merge data must be an object of relative paths")
        }
    }
}
