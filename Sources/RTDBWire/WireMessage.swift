import RTDBCore

/// One protocol v5 message after de-framing (docs/wire-protocol.md#envelopes).
public enum WireMessage: Sendable, Hashable {
    /// A control-layer message.
    case control(ControlMessage)
    /// A client request: number, action and raw body (see ``ClientRequest`` for the typed form).
    case request(number: Int, action: String, body: JSONValue)
    /// The response to request `number`.
    case response(number: Int, status: WireStatus, data: JSONValue)
    /// A server push.
    case push(ServerPush)

    /// Parses message text.
    ///
    /// - Throws: ``WireError`` (`invalid_request`) for malformed JSON or envelopes.
    public init(text: String) throws(WireError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw .invalidRequest(error.description)
        }
        try self.init(json: json)
    }

    /// Reads a parsed envelope.
    public init(json: JSONValue) throws(WireError) {
        guard case .object = json else { throw .invalidRequest("a message must be a JSON object") }
        switch json["t"] {
        case .string("c")?:
            self = .control(try ControlMessage(json: json["d"] ?? .null))
        case .string("d")?:
            guard let data = json["d"], case .object = data else { throw .invalidRequest("data message without 'd'") }
            let number = data["r"]?.intValue.flatMap { Int32(exactly: $0) }.map(Int.init)
            if let action = data["a"]?.stringValue {
                if let number {
                    self = .request(number: number, action: action, body: data["b"] ?? [:])
                } else {
                    self = .push(try ServerPush(action: action, body: data["b"] ?? [:]))
                }
            } else if let number, let body = data["b"] {
                self = .response(
                    number: number, status: WireStatus(rawValue: body["s"]?.stringValue ?? ""), data: body["d"] ?? .null
                )
            } else {
                throw .invalidRequest("data message needs 'r' and 'a', or 'r' and 'b'")
            }
        default:
            throw .invalidRequest("message 't' must be \"c\" or \"d\"")
        }
    }

    /// The message as a JSON envelope.
    public var json: JSONValue {
        switch self {
        case .control(let control):
            return ["t": "c", "d": control.json]
        case .request(let number, let action, let body):
            return ["t": "d", "d": ["r": .int(Int64(number)), "a": .string(action), "b": body]]
        case .response(let number, let status, let data):
            return ["t": "d", "d": ["r": .int(Int64(number)), "b": ["s": .string(status.rawValue), "d": data]]]
        case .push(let push):
            return ["t": "d", "d": ["a": .string(push.action), "b": push.body]]
        }
    }

    /// The message as compact JSON text.
    public var text: String { json.jsonString }

    /// A request message for a typed client request.
    public static func request(_ number: Int, _ request: ClientRequest) -> WireMessage {
        .request(number: number, action: request.action.rawValue, body: request.body)
    }
}
