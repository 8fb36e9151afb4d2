import Foundation
import RTDBClient

/// The server a simulation's clients reach, read from a database URL as the SDKs read it.
///
/// `http://HOST:PORT?ns=NAME` (a local server or emulator), `https://<db>.firebaseio.com`,
/// `https://<db>.<region>.firebasedatabase.app` (the namespace is the host's first label unless
/// `?ns=` says otherwise), and `FIREBASE_DATABASE_EMULATOR_HOST`, which sends the connection to
/// the emulator, unencrypted, keeping the URL's namespace.
public struct ServerTarget: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https` (the client uses `ws` or `wss`).
    public var scheme: String
    /// The server's host.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The namespace (database name).
    public var namespace: String
    /// Whether `FIREBASE_DATABASE_EMULATOR_HOST` redirected the URL to an emulator.
    public var isEmulator = false

    /// Makes a plain-HTTP target (a local server).
    public init(host: String, port: Int, namespace: String) {
        scheme = "http"
        self.host = host
        self.port = port
        self.namespace = namespace
    }

    /// Reads a database URL; nil if it is not one (`emulatorHost` as the environment variable).
    public init?(
        url: String,
        emulatorHost: String? = ProcessInfo.processInfo.environment["FIREBASE_DATABASE_EMULATOR_HOST"]
    ) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, Self.isHostName(host),
            components.path.isEmpty || components.path == "/"
        else { return nil }
        let secure = scheme == "https" || scheme == "wss"
        guard secure || scheme == "http" || scheme == "ws" else { return nil }
        self.scheme = secure ? "https" : "http"
        self.host = host
        guard let port = components.port ?? (secure ? 443 : nil), (1...65_535).contains(port) else { return nil }
        self.port = port
        let named = components.queryItems?.first(where: { $0.name == "ns" })?.value
        if let named, !Self.isNamespace(named) { return nil }
        namespace = DatabaseURL.namespace(host: host, parameter: named)
        if let emulatorHost, !emulatorHost.isEmpty {
            guard let emulator = URLComponents(string: "http://\(emulatorHost)"), let host = emulator.host,
                let port = emulator.port, emulator.path.isEmpty
            else { return nil }
            (self.scheme, self.host, self.port, isEmulator) = ("http", host, port, true)
        }
    }

    /// The URL a direct client uses.
    public var url: String {
        let standardPort = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return "\(scheme)://\(hostInURL)\(standardPort ? "" : ":\(port)")?ns=\(namespace)"
    }

    /// The host as a URL writes it (an IPv6 address in brackets).
    var hostInURL: String { host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host }

    /// Whether TLS carries the connection.
    public var isSecure: Bool { scheme == "https" }

    /// Whether the server is on this machine or is the emulator: a server the dashboard may
    /// write to without being asked (anything else is someone's real database).
    public var isLocal: Bool {
        isEmulator || ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
    }

    /// For example `127.0.0.1:9000 ns=demo`, or `https://my-app.firebaseio.com` for production.
    public var description: String { isSecure ? url : "\(host):\(port) ns=\(namespace)" }

    /// Whether `host` is a name or an address, with nothing that could change a URL's meaning.
    private static func isHostName(_ host: String) -> Bool {
        host.utf8.count <= 253
            && host.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0))
            }
    }

    /// Whether `name` can be a namespace: Firebase's database names are letters, digits and `-`.
    private static func isNamespace(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0))
            }
    }
}
