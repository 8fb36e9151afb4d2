import Hummingbird

/// A metrics listener apart (`--metrics-listen`): `GET /metrics` without a credential, and
/// nothing else, so that it can be bound where only the scraper reaches.
struct MetricsResponder: HTTPResponder {
    typealias Context = ServerRequestContext

    /// The metrics now, as `/metrics` answers them.
    let scrape: @Sendable () async -> Response

    func respond(to request: Request, context: Context) async throws -> Response {
        do {
            guard request.uri.path == "/metrics" else {
                throw RESTError(.notFound, "only /metrics is served here")
            }
            guard request.method == .get || request.method == .head else {
                throw RESTError.methodNotAllowed(request.method.rawValue)
            }
            return await scrape()
        } catch let error as RESTError {
            return error.response
        }
    }
}
