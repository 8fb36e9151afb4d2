import Foundation

/// A database URL read as the SDKs read it (docs/wire-protocol.md#connecting): the namespace from
/// `?ns=` or the first label of a `<ns>.firebaseio.com` host; `ws` for local hosts, `wss`
/// otherwise.
public struct DatabaseURL {
    var socketBase: String
    var namespace: String

    /// Reads `url`; with `emulatorHost` (`FIREBASE_DATABASE_EMULATOR_HOST`, `host:port`) the
    /// connection goes there instead, unencrypted, keeping the URL's namespace, as the SDKs do.
    init(_ url: String, emulatorHost: String? = ProcessInfo.processInfo.environment["FIREBASE_DATABASE_EMULATOR_HOST"])
    {
        let components = URLComponents(string: url)
        let host = components?.host ?? "127.0.0.1"
        let port = components?.port
        let scheme = components?.scheme?.lowercased() ?? "http"
        let secure = scheme == "https" || scheme == "wss"
        let hostPort = port.map { "\(host):\($0)" } ?? host
        socketBase = (secure ? "wss://" : "ws://") + hostPort
        namespace = Self.namespace(
            host: host, parameter: components?.queryItems?.first { $0.name == "ns" }?.value)
        if let emulatorHost, !emulatorHost.isEmpty { socketBase = "ws://" + emulatorHost }
    }

    /// The namespace a database URL names, as the SDKs read it.
    ///
    /// `?ns=`, else the first label of a host of three labels or more (`<db>.firebaseio.com`, `<db>.<region>.firebasedatabase.app`),
    /// else `demo`. The one home of this rule (the dashboard's `ServerTarget` reads URLs with it).
    public static func namespace(host: String, parameter: String?) -> String {
        if let parameter { return parameter }
        let labels = host.split(separator: ".")
        return labels.count >= 3 && Int(labels[0]) == nil ? labels[0].lowercased() : "demo"
    }
}
