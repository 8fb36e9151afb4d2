import Foundation
import RTDBTestSupport
import Testing

/// `presencetop --url https://… --credentials key.json`, the way to watch your own project, with
/// what cannot be reached from here stood in for by local processes speaking the real formats:
/// Google's token endpoint (Tests/Interop/google_stand_in.py) and a TLS server whose certificate
/// a test CA signed.
@Suite(.serialized) struct OwnProjectDashboardTests {
    static var enabled: Bool {
        DashboardTmuxTests.enabled && InteropPython.required && TestCertificateAuthority.runnable
    }

    @Test(.enabled(if: enabled, "needs tmux, .venv and openssl (made by .ci/run; required when CI=true)"))
    func aServiceAccountSignsInOverTLSAndTheHeaderSaysAsWhom() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try await TestCertificateAuthority.make(in: directory)
        let secret = "server-secret-\(UUID().uuidString)"
        let (server, port) = try await ChildProcess.serve([
            "--memory", "--tls-cert", authority.serverCertificate, "--tls-key", authority.serverKey,
            "--auth-secret", secret,
        ])
        defer { server.signal(SIGTERM) }
        // A real database checks the access token with Google; ours takes its secret as the
        // admin credential, so that is what the stand-in issues.
        let standIn = try await GoogleStandIn.start(accessToken: secret)
        defer { standIn.stop() }
        let (command, home) = try DashboardTmuxTests.command(
            "--url 'https://localhost:\(port)?ns=demo' --credentials \(standIn.keyFile) --ca-file "
                + "\(authority.caCertificate) --users 0 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 200, height: 40)
        defer { tmux.close() }
        let (ok, screen) = try await tmux.waitFor {
            $0.contains("as presencetop-test@stand-in.iam.gserviceaccount.com") && DashboardTmuxTests.isSettled($0)
                && $0.contains("TLS goes straight to the server")
        }
        #expect(ok, "signed in over TLS as the service account, this device's entry written and shown:\n\(screen)")
        let exchange = try #require(standIn.requests.first)
        #expect(exchange["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" && exchange["status"] == 200)
        #expect(!screen.contains(secret), "the credential is never on the screen")
        let (quit, _) = try await tmux.quit()
        #expect(quit)
        let log = try String(
            contentsOf: home.appendingPathComponent("state/presencetop/presencetop.log"), encoding: .utf8)
        #expect(!log.contains(secret) && !log.contains("PRIVATE KEY"), "nor in the log")
    }
}
