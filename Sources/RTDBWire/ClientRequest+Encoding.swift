import OrderedCollections
import RTDBCore

extension ClientRequest {
    /// The action sent as `a`.
    public var action: Action {
        switch self {
        case .listen: .listen
        case .unlisten: .unlisten
        case .put: .put
        case .merge: .merge
        case .onDisconnectPut: .onDisconnectPut
        case .onDisconnectMerge: .onDisconnectMerge
        case .onDisconnectCancel: .onDisconnectCancel
        case .get: .get
        case .auth: .auth
        case .gauth: .gauth
        case .unauth: .unauth
        case .stats: .stats
        case .appCheck: .appCheck
        case .unappCheck: .unappCheck
        case .onDisconnectDryRun: .onDisconnectDryRun
        }
    }

    /// The body sent as `b`.
    public var body: JSONValue {
        switch self {
        case .listen(let path, let query, let tag, let hash):
            var members = ClientRequest.pathAndQuery(path, query, tag)
            members["h"] = .string(hash)
            return .object(members)
        case .unlisten(let path, let query, let tag):
            return .object(ClientRequest.pathAndQuery(path, query, tag))
        case .put(let path, let data, let hash, let key):
            var members: JSONValue.Members = ["p": .string(path.description), "d": data]
            if let hash { members["h"] = .string(hash) }
            if let key { members["ik"] = .string(key) }
            return .object(members)
        case .merge(let path, let data, let key):
            var members: JSONValue.Members = ["p": .string(path.description), "d": .object(data)]
            if let key { members["ik"] = .string(key) }
            return .object(members)
        case .onDisconnectMerge(let path, let data):
            return ["p": .string(path.description), "d": .object(data)]
        case .onDisconnectPut(let path, let data):
            return ["p": .string(path.description), "d": data]
        case .onDisconnectCancel(let path):
            return ["p": .string(path.description), "d": nil]
        case .get(let path, let query):
            return ["p": .string(path.description), "q": query.wireObject]
        case .auth(let credential, let authVariable), .gauth(let credential, let authVariable):
            var members: JSONValue.Members = ["cred": .string(credential)]
            if let authVariable { members["authvar"] = authVariable }
            return .object(members)
        case .unauth, .unappCheck, .onDisconnectDryRun:
            return [:]
        case .stats(let counters):
            return ["c": counters]
        case .appCheck(let token):
            return ["token": .string(token)]
        }
    }

    private static func pathAndQuery(_ path: Path, _ query: QueryParams, _ tag: Int?) -> JSONValue.Members {
        var members: JSONValue.Members = ["p": .string(path.description)]
        if !query.isDefault { members["q"] = query.wireObject }
        if let tag { members["t"] = .int(Int64(tag)) }
        return members
    }
}
