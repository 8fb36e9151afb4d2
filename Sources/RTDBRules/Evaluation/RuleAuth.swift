import RTDBCore

/// Who a request comes from, as rules see it.
public enum RuleAuth: Sendable, Hashable {
    /// The admin credential: rules do not apply.
    case admin
    /// No credential: `auth` is null.
    case anonymous
    /// A signed-in user: the `auth` variable (`uid`, `provider`, `token` with the claims).
    case user(JSONValue)

    /// A user from a credential's claims: `uid` from `uid`, `user_id` or `sub`, the provider from
    /// `firebase.sign_in_provider` (else `custom`), and the claims as `token`.
    public static func user(claims: JSONValue) -> RuleAuth {
        let uid = claims["uid"] ?? claims["user_id"] ?? claims["sub"] ?? .null
        let provider = claims["firebase"]?["sign_in_provider"] ?? "custom"
        return .user(["uid": uid, "provider": provider, "token": claims])
    }

    /// The `auth` variable: null when signed out.
    var variable: JSONValue {
        switch self {
        case .admin, .anonymous: return .null
        case .user(let value): return value
        }
    }

    /// Who this is, for messages.
    public var description: String {
        switch self {
        case .admin: return "admin"
        case .anonymous: return "signed out"
        case .user(let value): return value["uid"]?.stringValue.map { "uid \($0)" } ?? "a user without uid"
        }
    }
}

/// The outcome of a rules check.
public enum RulesDecision: Sendable, Equatable {
    /// The request may go ahead.
    case allowed
    /// Refused: why, and by which rule.
    case denied(RuleRefusal)

    /// Whether the request may go ahead.
    public var isAllowed: Bool { self == .allowed }

    /// The refusal, when refused.
    public var refusal: RuleRefusal? {
        if case .denied(let refusal) = self { return refusal }
        return nil
    }
}
