import Foundation

/// Where the next connection goes, and as what: the URL's scheme and host, the host Firebase
/// named instead (a shard, a moved database), the namespace, and the session it resumes.
struct ConnectionTarget {
    /// `ws` or `wss`, from the URL.
    let scheme: String
    /// The URL's own `host[:port]`.
    let configuredHost: String
    /// The database's namespace (`ns=`).
    let namespace: String
    /// Where connections go (the SDKs' `internalHost`).
    ///
    /// The host the server's handshake or reset named, else the URL's: a database Firebase serves
    /// from a shard, or has moved, is reached there; a cached host that fails gives way to the
    /// URL's again.
    private(set) var internalHost: String
    /// The last session's id, sent as `ls=` so the server ends it at once (a half-open one too).
    var lastSessionID: String?

    /// The target of `baseURL` (`ws://host:port` or `wss://host`) and `namespace`.
    init(baseURL: String, namespace: String) {
        let parts = baseURL.components(separatedBy: "://")
        scheme = parts.count == 2 ? parts[0] : "ws"
        configuredHost = parts.count == 2 ? parts[1] : baseURL
        internalHost = configuredHost
        self.namespace = namespace
    }

    /// The WebSocket URL of the next connection.
    var url: String {
        var url = "\(scheme)://\(internalHost)/.ws?v=5&ns=\(namespace)"
        if let lastSessionID { url += "&ls=\(lastSessionID)" }
        return url
    }

    /// Takes `host` (a handshake's or a reset's) for the next connections; true if it changed.
    mutating func learn(_ host: String) -> Bool {
        guard Self.isHost(host), host != internalHost else { return false }
        internalHost = host
        return true
    }

    /// Goes back to the URL's own host (a cached one stopped answering); true if it changed.
    mutating func forgetLearnedHost() -> Bool {
        guard internalHost != configuredHost else { return false }
        internalHost = configuredHost
        return true
    }

    /// The learned host as the repo keeps it: nil when it is the URL's own.
    var learnedHost: String? { internalHost == configuredHost ? nil : internalHost }

    /// Whether a server's `h` or reset names a host a URL can be made of: letters, digits, `.`,
    /// `-`, `:` and brackets (an IPv6 address), nothing that could change the URL's path.
    static func isHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || ".-:[]".unicodeScalars.contains(scalar))
            }
    }
}
