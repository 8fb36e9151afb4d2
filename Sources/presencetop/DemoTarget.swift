import Foundation

/// The server a demo's devices reach: host, port and namespace, from a URL.
struct DemoTarget: CustomStringConvertible {
    var host: String
    var port: Int
    var namespace: String

    init(host: String, port: Int, namespace: String) {
        self.host = host
        self.port = port
        self.namespace = namespace
    }

    /// Reads `http://HOST:PORT?ns=NAMESPACE` (the namespace defaults to `demo`).
    init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme == "http" || components.scheme == "ws",
            let host = components.host, !host.isEmpty, let port = components.port
        else { return nil }
        self.host = host
        self.port = port
        namespace = components.queryItems?.first { $0.name == "ns" }?.value ?? "demo"
    }

    /// The URL a direct client uses.
    var url: String { "http://\(host):\(port)?ns=\(namespace)" }

    var description: String { "\(host):\(port) ns=\(namespace)" }
}
