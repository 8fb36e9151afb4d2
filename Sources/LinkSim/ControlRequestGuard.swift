import Hummingbird
import NIOCore
import RTDBCore

/// The first word on every request to a link's control interface.
///
/// The interface has no credential (it is meant for this machine), so it answers only requests
/// whose `Host` names an address, not a domain name: a web page on a domain that a DNS-rebinding
/// attacker points at 127.0.0.1 sends its own name and is refused. Paths other than `/link` get
/// `404`, methods other than `GET` and `PUT` get `405` with `Allow`, each with a reason.
struct ControlRequestGuard<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let host = request.head.authority ?? ""
        guard Self.namesAnAddress(host) else {
            return Self.refuse(
                .forbidden,
                "Host '\(host)' is not an address: the control interface answers requests to an IP address or localhost only"
            )
        }
        guard request.uri.path == LinkControl.path else {
            return Self.refuse(
                .notFound, "no such path: \(request.uri.path) (the control interface is \(LinkControl.path))")
        }
        guard request.method == .get || request.method == .put || request.method == .head else {
            var response = Self.refuse(
                .methodNotAllowed, "\(LinkControl.path) is read with GET and changed with PUT, not \(request.method)")
            response.headers[.allow] = "GET, PUT"
            return response
        }
        return try await next(request, context)
    }

    /// Whether a `Host` header (`127.0.0.1:9100`, `[::1]:9100`, `localhost`) names an address.
    static func namesAnAddress(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
            return !name.isEmpty && name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if let colon = name.lastIndex(of: ":") {
            guard name[name.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return false }
            name = name[..<colon]
        }
        if name.lowercased() == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { _ in part.count <= 3 } ?? false }
    }

    private static func refuse(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(string: JSONValue.object(["error": .string(reason)]).jsonString + "\n")))
    }
}

extension Character {
    /// `0`–`9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
