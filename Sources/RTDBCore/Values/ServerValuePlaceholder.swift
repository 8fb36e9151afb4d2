/// A placeholder the server replaces with a value when it applies a write
/// (docs/wire-protocol.md#server-values), as the engine reads it; apps write these with the
/// client's `ServerValue.timestamp()` and `ServerValue.increment(_:)`.
public enum ServerValuePlaceholder: Sendable, Hashable {
    /// `{".sv":"timestamp"}`: the server's clock, in milliseconds since the Unix epoch.
    case timestamp
    /// `{".sv":{"increment":n}}`: the number stored at that location plus `n` (a missing or
    /// non-number value counts as 0).
    case increment(JSONNumber)

    /// Reads a `.sv` placeholder object; nil when `json` is not one.
    ///
    /// - Throws: ``ValidationError/unknownServerValue(path:placeholder:)`` for a `.sv` object this
    ///   engine does not know.
    public init?(json: JSONValue, at path: Path) throws(ValidationError) {
        guard case .object(let members) = json, let op = members[".sv"] else { return nil }
        switch op {
        case .string("timestamp") where members.count == 1:
            self = .timestamp
        case .object(let inner) where members.count == 1 && inner.count == 1:
            guard case .number(let delta)? = inner["increment"], delta.isFinite else { fallthrough }
            self = .increment(delta)
        default:
            throw .unknownServerValue(path: path.description, placeholder: json.jsonString)
        }
    }

    /// The placeholder as sent on the wire.
    public var json: JSONValue {
        switch self {
        case .timestamp: return [".sv": "timestamp"]
        case .increment(let delta): return [".sv": ["increment": .number(delta)]]
        }
    }

    /// The resolved value, given the server time and the value currently at the location.
    public func resolve(now: UnixTime, existing: LeafValue?) -> LeafValue {
        switch self {
        case .timestamp:
            return .number(.int(now.millisecondsSince1970))
        case .increment(let delta):
            if case .number(let base)? = existing { return .number(base + delta) }
            return .number(delta)
        }
    }
}
