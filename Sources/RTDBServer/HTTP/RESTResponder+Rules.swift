import Hummingbird
import NIOCore
import RTDBCore
import RTDBRules

extension RESTResponder {
    /// `GET`/`PUT /.settings/rules.json`: a namespace's security rules, read and replaced at
    /// runtime with the admin credential, as with the emulator.
    ///
    /// A `PUT` whose rules do not check gets `400` with `FILE:LINE:COLUMN: message`, and the
    /// rules in force stay.
    func rulesSettings(_ request: Request) async throws -> Response {
        var request = request
        guard try isAdmin(request) else {
            throw RESTError(.unauthorized, "the rules can only be read or replaced with the admin credential")
        }
        let (engine, namespace) = try await lease(request)
        defer { services.registry.release(namespace) }
        switch request.method {
        case .get:
            let text = await engine.securityRules.text
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        case .put:
            let buffer = try await rawBody(of: &request)
            let rules: SecurityRules
            do {
                rules = try SecurityRules(text: String(buffer: buffer), file: "rules.json")
            } catch {
                throw RESTError(.badRequest, error.description)
            }
            await engine.setRules(rules)
            services.logger.notice("namespace \(namespace): security rules replaced")
            return RESTResponder.json(["status": "ok"])
        default:
            throw RESTError(.methodNotAllowed, "the rules are read with GET and replaced with PUT")
        }
    }

    /// Leases the engine of the namespace a request names (`?ns=`, else the host's first label,
    /// else the default); the caller releases it.
    func lease(_ request: Request) async throws -> (DatabaseEngine, namespace: String) {
        let namespace =
            request.uri.queryParameters["ns"].map(String.init)
            ?? RESTRequest.namespace(fromHost: request.head.authority) ?? services.configuration.defaultNamespace
        do {
            return (try await services.registry.lease(namespace), namespace)
        } catch let error as NamespaceError {
            throw RESTError(error)
        }
    }

    /// Whether a request carries the admin credential (as the server's policy reads it).
    func isAdmin(_ request: Request) throws(RESTError) -> Bool {
        try RESTRequest.auth(
            of: request, parameters: RESTRequest.parameters(of: request),
            policy: services.configuration.credentialPolicy,
            now: services.clock()) == .admin
    }
}
