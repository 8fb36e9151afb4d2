import HTTPTypes
import Hummingbird
import NIOCore

extension RESTResponder {
    /// `GET /healthz` and `GET /readyz`, in plain text.
    ///
    /// `/healthz`: the process answers (`200 ok`). `/readyz`: every open namespace's store takes
    /// writes and the server is not stopping (`200 ready`), else `503` with the reasons on one
    /// line. No credential needed: neither says anything but these states.
    func health(_ request: Request) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw RESTError.methodNotAllowed(request.method.rawValue)
        }
        if request.uri.path == "/healthz" { return Self.text(.ok, "ok") }
        let problems = await services.registry.readinessProblems()
        guard problems.isEmpty else {
            return Self.text(.serviceUnavailable, "not ready: " + problems.joined(separator: "; "))
        }
        return Self.text(.ok, "ready")
    }

    /// A one-line plain-text answer.
    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: line + "\n")))
    }
}
