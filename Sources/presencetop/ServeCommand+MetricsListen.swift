import ArgumentParser
import Foundation

extension ServeCommand {
    /// `--metrics-listen`'s address: `HOST:PORT`, `[IPv6]:PORT`, or `PORT` (and `:PORT`) on
    /// loopback.
    ///
    /// - Throws: `ValidationError` naming the value and the expected form.
    static func metricsAddress(_ text: String) throws -> (host: String, port: Int) {
        let problem = ValidationError("--metrics-listen '\(text)' is not HOST:PORT or PORT (a port is 0 to 65535)")
        var host = "127.0.0.1"
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            let named = text[..<colon]
            portText = text[text.index(after: colon)...]
            if !named.isEmpty {
                host = String(named.hasPrefix("[") && named.hasSuffix("]") ? named.dropFirst().dropLast() : named)
            }
        }
        guard let port = Int(portText), (0...65_535).contains(port), !host.isEmpty,
            host.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0 != "/" })
        else { throw problem }
        return (host, port)
    }

    /// Says on stderr where `--metrics-listen` serves (`metrics on http://HOST:PORT/metrics`,
    /// the line scripts wait for), and warns when that is not loopback: there `/metrics` needs
    /// no credential.
    static func sayMetricsListening(host: String, port: Int, command: String) {
        let shown = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardError.write(Data("metrics on http://\(shown):\(port)/metrics\n".utf8))
        if !isLoopback(host) {
            FileHandle.standardError.write(
                Data("presencetop \(command): warning: /metrics on \(host) needs no credential there\n".utf8))
        }
    }
}
