import HTTPTypes
import Hummingbird
import NIOCore

extension RESTResponder {
    /// `GET /metrics`: what the server counts, in Prometheus' text format.
    ///
    /// Open to all on an emulator (no `--auth-secret`, where anyone is admin anyway); with a
    /// secret, for the admin credential only (`Authorization: Bearer <secret>`).
    func metrics(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw RESTError.methodNotAllowed(request.method.rawValue)
        }
        if services.configuration.authSecret != nil, try !isAdmin(request) {
            throw RESTError(.unauthorized, "/metrics needs the admin credential ('Authorization: Bearer <secret>')")
        }
        return await Self.scrape(services)
    }

    /// The metrics now, as `/metrics` answers them (the gauges read first).
    static func scrape(_ services: ServerServices) async -> Response {
        let metrics = services.metrics
        let sessions = services.connections.connections
        metrics.sessions.open.set(Int64(sessions.count))
        metrics.sessions.listensActive.set(Int64(sessions.reduce(0) { $0 + $1.listenCount }))
        metrics.sessions.onDisconnectRegistered.set(Int64(sessions.reduce(0) { $0 + $1.onDisconnectCount }))
        metrics.namespacesOpen.set(Int64(await services.registry.openNamespaces.count))
        let text = metrics.text()
        metrics.scrapes.signal()
        return MetricsListener.response(text)
    }
}
