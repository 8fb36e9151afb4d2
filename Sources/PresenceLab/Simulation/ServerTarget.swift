import Foundation

/// The server a simulation's clients reach: host, port and namespace, from a URL.
public struct ServerTarget: Sendable, Equatable, CustomStringConvertible {
    /// The server's host.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The namespace (database name).
    public var namespace: String

    /// Makes a target.
    public init(host: String, port: Int, namespace: String) {
        self.host = host
        self.port = port
        self.namespace = namespace
    }

    /// Reads `http://HOST:PORT?ns=NAMESPACE` (the namespace defaults to `demo`); nil if it is not
    /// of that form.
    public init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme == "http" || components.scheme == "ws",
            let host = components.host, !host.isEmpty, let port = components.port
        else { return nil }
        self.host = host
        self.port = port
        namespace = components.queryItems?.first { $0.name == "ns" }?.value ?? "demo"
    }

    /// The URL a direct client uses.
    public var url: String { "http://\(host):\(port)?ns=\(namespace)" }

    /// For example `127.0.0.1:9000 ns=demo`.
    public var description: String { "\(host):\(port) ns=\(namespace)" }
}
