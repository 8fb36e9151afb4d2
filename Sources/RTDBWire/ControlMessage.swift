import RTDBCore

/// The server hello that opens every connection (`{"t":"c","d":{"t":"h","d":{...}}}`).
public struct Handshake: Sendable, Hashable {
    /// The server's time in milliseconds since the epoch.
    public var timestamp: Int64
    /// The protocol version, `"5"`.
    public var version: String
    /// The host clients should dial next time.
    public var host: String
    /// The session id, sent back as `ls=` on reconnect.
    public var sessionID: String

    /// Makes a hello.
    public init(timestamp: Int64, version: String = "5", host: String, sessionID: String) {
        self.timestamp = timestamp
        self.version = version
        self.host = host
        self.sessionID = sessionID
    }
}

/// A control-layer message (`"t":"c"`, docs/wire-protocol.md#envelopes).
public enum ControlMessage: Sendable, Hashable {
    /// `h`: the server hello.
    case hello(Handshake)
    /// `p`: a ping from the client.
    case ping
    /// `o`: the answer to a ping; presencetop's server adds its time (`{"ts": ms}`).
    case pong(serverTime: Int64?)
    /// `r`: reconnect to another host.
    case reset(host: String)
    /// `s`: the server shuts the connection down; clients stop reconnecting.
    case shutdown(reason: String)
    /// `e`: a server error the client logs.
    case error(String)
    /// Any other control type, kept as it came.
    case other(type: String, data: JSONValue)

    init(json: JSONValue) throws(WireError) {
        guard case .string(let type)? = json["t"] else { throw .invalidRequest("control message without 't'") }
        let data = json["d"] ?? .null
        switch type {
        case "h":
            guard let ts = data["ts"]?.intValue, case .string(let host)? = data["h"],
                case .string(let session)? = data["s"]
            else { throw .invalidRequest("malformed hello") }
            self = .hello(
                Handshake(timestamp: ts, version: data["v"]?.stringValue ?? "5", host: host, sessionID: session))
        case "p": self = .ping
        case "o": self = .pong(serverTime: data["ts"]?.intValue)
        case "r": self = .reset(host: data.stringValue ?? "")
        case "s": self = .shutdown(reason: data.stringValue ?? "")
        case "e": self = .error(data.stringValue ?? data.jsonString)
        default: self = .other(type: type, data: data)
        }
    }

    /// The text of `.control(.pong(serverTime:))`, made without building a JSON tree: a server
    /// sends one for every ping.
    public static func pongText(serverTime: Int64) -> String {
        #"{"t":"c","d":{"t":"o","d":{"ts":"# + String(serverTime) + "}}}"
    }

    var json: JSONValue {
        switch self {
        case .hello(let hello):
            let body: JSONValue = [
                "ts": .int(hello.timestamp), "v": .string(hello.version), "h": .string(hello.host),
                "s": .string(hello.sessionID),
            ]
            return ["t": "h", "d": body]
        case .ping: return ["t": "p", "d": [:]]
        case .pong(let serverTime): return ["t": "o", "d": serverTime.map { ["ts": .int($0)] } ?? [:]]
        case .reset(let host): return ["t": "r", "d": .string(host)]
        case .shutdown(let reason): return ["t": "s", "d": .string(reason)]
        case .error(let message): return ["t": "e", "d": .string(message)]
        case .other(let type, let data): return ["t": .string(type), "d": data]
        }
    }
}
