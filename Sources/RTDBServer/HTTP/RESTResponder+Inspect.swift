import Hummingbird
import NIOCore
import RTDBCore
import RTDBRules

extension RESTResponder {
    /// `GET /.inspect/coverage.json?ns=NS` and `/.inspect/coverage?ns=NS`: the rules' coverage as
    /// the emulator serves it (JSON, or a page to read), with the latest denials.
    ///
    /// As the emulator's, these need no credential: they are for development servers. The counts
    /// start again when the rules are replaced.
    func inspect(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw RESTError(.methodNotAllowed, "the coverage report is read with GET")
        }
        let (engine, namespace) = try await lease(request)
        defer { registry.release(namespace) }
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
