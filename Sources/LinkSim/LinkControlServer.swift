import Hummingbird
import Logging
import NIOCore
import RTDBCore

/// The control interface of a standalone link: HTTP on its own port, reading and setting the
/// link's mode and conditions and reading its stats, in ``LinkControl``'s JSON.
///
/// `GET /link` reads; `PUT /link` changes and answers the new state. A request that cannot be
/// read gets `400` with `{"error": "…"}` naming the problem, and the link is left as it was.
/// Requests whose `Host` is a domain name are refused (``ControlRequestGuard``): it has no
/// credential, so it keeps to loopback unless asked, and out of a DNS-rebinding page's reach.
public struct LinkControlServer: Sendable {
    /// The link it drives.
    public let link: LinkProxy
    private let host: String
    private let port: Int
    private let logger: Logger

    /// Makes a control server for `link` on `host:port` (0: the system picks the port).
    public init(link: LinkProxy, host: String = "127.0.0.1", port: Int = 0, logger: Logger) {
        self.link = link
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM (or the task is cancelled).
    ///
    /// - Parameter onListening: Called once with the bound port.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router()
        router.add(middleware: ControlRequestGuard())
        let link = link
        router.get(RouterPath(LinkControl.path)) { _, _ in
            Self.answer(.ok, LinkControl.state(of: link))
        }
        router.put(RouterPath(LinkControl.path)) { request, _ in
            let body = try await request.body.collect(upTo: 64 * 1024)
            do {
                let json: JSONValue
                do {
                    json = try JSONParser.parse(String(buffer: body))
                } catch {
                    throw LinkError.invalidRequest("the body is not JSON: \(error)")
                }
                let change = try LinkControl.change(from: json, current: link.conditions)
                try LinkControl.apply(change, to: link)
                return Self.answer(.ok, LinkControl.state(of: link))
            } catch let error as LinkError {
                return Self.answer(.badRequest, ["error": .string(error.description)])
            }
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        try await app.runService()
    }

    private static func answer(_ status: HTTPResponse.Status, _ json: JSONValue) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: json.jsonString + "\n")))
    }
}
