import Foundation
import NIOSSL
import RTDBCore
import RTDBTestSupport
import Testing

@testable import RTDBClient

/// `wss://` end to end: the server with a self-signed certificate made by `openssl`, the client
/// trusting exactly that certificate through swift-nio-ssl.
@Suite struct TLSIntegrationTests {
    static func makeCertificate(in directory: URL) async throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = try await ChildProcess(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        let status = try await openssl.waitForExit()
        guard status == 0 else { throw TestFailure("openssl failed: \(openssl.standardError)") }
        return (certificate, key)
    }

    static var runnable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
            || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    @Test(.enabled(if: runnable, "needs /usr/bin/openssl (installed by .ci/run; required when CI=true)"))
    func secureWebSocketsWork() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = try await Self.makeCertificate(in: directory)
        let server = try await TestServer.start(configure: { $0.tls = (certificate, key) })
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        // A host name, not an IP: TLS sends the host as SNI, which cannot be an IP address.
        let client = Database(
            url: "https://localhost:\(server.port)?ns=demo", transport: WebSocketTransport(tlsConfiguration: tls))
        client.goOnline()
        let connected = try await until(client.changes) {
            if case .connected = client.connectionStatus.phase { return true }
            return false
        }
        guard connected else {
            Issue.record("not connected: \(client.connectionStatus.phase)")
            client.close()
            await server.stop()
            return
        }
        try await client.reference(withPath: "secure/hello").setValue("over wss")
        #expect(try await client.reference(withPath: "secure/hello").getData().value as? String == "over wss")
        // A client that does not trust the certificate cannot connect.
        let untrusting = Database(url: "https://localhost:\(server.port)?ns=demo")
        untrusting.goOnline()
        #expect(
            try await until(untrusting.changes) {
                if case .waitingToRetry = untrusting.connectionStatus.phase { return true }
                return false
            })
        client.close()
        untrusting.close()
        await server.stop()
    }
}
