import Hummingbird
import NIOCore
import RTDBCore
import RTDBRules

extension RESTResponder {
    /// `GET /.inspect/coverage.json?ns=NS` and `/.inspect/coverage?ns=NS`: the rules' coverage as
    /// the emulator serves it (JSON, or a page to read), with the latest denials.
    ///
    /// Without `--auth-secret` the server plays the emulator, and like the emulator's these need
    /// no credential. With a secret the server is production-like, and the report (the whole rules
    /// file, other users' uids and paths in the denials) is for the admin credential only, as
    /// `/.settings/rules.json` is. The counts start again when the rules are replaced.
    func inspect(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw RESTError(.methodNotAllowed, "the coverage report is read with GET")
        }
        if services.configuration.credentialPolicy.secret != nil, try !isAdmin(request) {
            throw RESTError(
                .unauthorized, "the coverage report is for the admin credential on a server with --auth-secret")
        }
        let (engine, namespace) = try await lease(request)
        defer { services.registry.release(namespace) }
        let report = await engine.securityRules.coverageReport()
        switch request.uri.path {
        case "/.inspect/coverage.json": return RESTResponder.json(report.json, pretty: true)
        case "/.inspect/coverage":
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(string: CoveragePage(report: report, namespace: namespace).html)))
        default:
            throw RESTError(
                .notFound,
                "no such report: \(request.uri.path) (there are /.inspect/coverage and /.inspect/coverage.json)")
        }
    }
}
