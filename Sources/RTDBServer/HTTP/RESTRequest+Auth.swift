import Hummingbird
import RTDBCore
import RTDBRules
import RTDBWire

extension RESTRequest {
    /// Who a REST request comes from (docs/security-rules.md#rest).
    ///
    /// The credential is `Authorization: Bearer <token>` or `?auth=<token>`: `owner` is admin, a
    /// JWT a user, none signed out. With the admin credential, `auth_variable_override` (what
    /// firebase-admin sends for `databaseAuthVariableOverride`) acts as the user it describes, or
    /// signed out when it is `null`.
    ///
    /// - Parameters:
    ///   - policy: How credentials are read (``CredentialPolicy``).
    ///   - now: The time in ms since the epoch.
    /// - Throws: ``RESTError`` `401` for a credential the policy refuses, or an override without
    ///   the admin credential.
    static func auth(of request: Request, parameters: [String: String], policy: CredentialPolicy, now: UnixTime)
        throws(RESTError) -> RuleAuth
    {
        var credential = parameters["auth"]
        if let header = request.headers[.authorization] {
            guard header.hasPrefix("Bearer ") else {
                throw RESTError(.unauthorized, "the Authorization header must be 'Bearer <token>'")
            }
            credential = String(header.dropFirst("Bearer ".count))
        }
        var token: AuthToken?
        do throws(WireError) {
            if let credential { token = try policy.token(for: credential, now: now) }
        } catch {
            // Firebase's words for the client (the explanation is the server's own business).
            throw RESTError(.unauthorized, error.firebaseWorded.message)
        }
        guard let override = parameters["auth_variable_override"] else { return RuleAuth(token) }
        guard token?.isAdmin == true else {
            throw RESTError(.unauthorized, "auth_variable_override needs the admin credential")
        }
        let variable: JSONValue
        do {
            variable = try JSONParser.parse(override)
        } catch {
            throw RESTError(.badRequest, "auth_variable_override is not JSON: \(error)")
        }
        switch variable {
        case .null: return .anonymous
        case .object: return .user(variable)
        default: throw RESTError(.badRequest, "auth_variable_override must be a JSON object or null")
        }
    }
}
