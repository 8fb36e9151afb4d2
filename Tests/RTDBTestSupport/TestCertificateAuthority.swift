import Foundation

/// A certificate authority made for one test by `openssl`, and a server certificate for
/// `localhost` it signed: what a client that trusts the CA (and nothing else new) accepts.
public struct TestCertificateAuthority: Sendable {
    /// The CA's certificate (PEM): what a client is told to trust.
    public let caCertificate: String
    /// The server's certificate (PEM), signed by the CA, for `localhost`.
    public let serverCertificate: String
    /// The server's private key (PEM).
    public let serverKey: String

    /// Whether the tests that need it run: with `/usr/bin/openssl`, and always in CI.
    public static var runnable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
            || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// Makes the CA and the server's certificate in `directory`.
    public static func make(in directory: URL) async throws -> TestCertificateAuthority {
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let extensions = path("server.ext")
        try "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n".write(
            toFile: extensions, atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
                "-days", "1", "-subj", "/CN=presencetop test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                "-subj", "/CN=localhost",
            ],
            [
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", path("server.pem"), "-days", "1", "-extfile", extensions,
            ],
        ]
        for arguments in steps {
            let openssl = try await ChildProcess(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
            guard try await openssl.waitForExit() == 0 else {
                throw TestFailure("openssl \(arguments[0]) failed: \(openssl.standardError)")
            }
        }
        return TestCertificateAuthority(
            caCertificate: path("ca.pem"), serverCertificate: path("server.pem"), serverKey: path("server.key"))
    }
}
