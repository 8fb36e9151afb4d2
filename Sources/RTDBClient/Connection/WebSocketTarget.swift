import Foundation

/// Where a WebSocket goes: `ws://` or `wss://`, the host, the port and the request target.
struct WebSocketTarget: Sendable {
    /// The largest frame read from the server (a message may span several).
    static let maxFrameSize = 1 << 20
    /// The largest message read from the server, its fragments joined.
    static let maxMessageSize = 64 << 20

    var secure: Bool
    var host: String
    var port: Int
    /// The path and the query, as the request line carries them.
    var requestTarget: String

    /// Whether the host is an address rather than a name (no TLS server name then).
    var isIPAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The `Host` header: the port only when it is not the scheme's own.
    var hostHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? shown : "\(shown):\(port)"
    }

    /// Reads `url` (`ws`, `wss`, or `http`/`https` for the same).
    init(url: String) throws(TransportURLError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw TransportURLError(url: url, problem: "is not a URL with a host") }
        switch scheme {
        case "ws", "http": secure = false
        case "wss", "https": secure = true
        default: throw TransportURLError(url: url, problem: "is not ws:// or wss://")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (secure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }
}

/// A transport URL that cannot be connected to.
struct TransportURLError: Error, CustomStringConvertible {
    var url: String
    var problem: String
    var description: String { "the address \(url) \(problem)" }
}
