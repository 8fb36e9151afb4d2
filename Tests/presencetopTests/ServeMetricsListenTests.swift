import Foundation
import RTDBTestSupport
import Testing

/// `serve --metrics-listen`: the metrics apart, without a credential, where only the scraper
/// reaches; the server's own port keeps them for the admin.
@Suite struct ServeMetricsListenTests {
    @Test func theMetricsApartNeedNoCredentialAndServeNothingElse() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secretFile = folder.appendingPathComponent("secret")
        try Data("s3cret-\(UUID().uuidString)\n".utf8).write(to: secretFile)
        let (server, port) = try await ChildProcess.serve(
            ["--memory", "--auth-secret-file", secretFile.path, "--metrics-listen", "0"])
        defer { server.signal(SIGTERM) }
        _ = await server.waitForOutput(containing: "/metrics\n", standardError: true)
        let line = server.standardError.split(separator: "\n").first { $0.hasPrefix("metrics on http://127.0.0.1:") }
        let metricsPort = line.flatMap { $0.split(separator: ":").last?.split(separator: "/").first }.flatMap {
            Int($0)
        }
        let apart = try #require(metricsPort, "\(server.standardError)")
        let scraped = try await http("GET", "/metrics", port: apart)
        #expect(scraped.status == 200 && scraped.body.contains("presencetop_sessions_open 0"), "\(scraped)")
        #expect(try await http("GET", "/healthz", port: apart).status == 404, "only /metrics there")
        #expect(
            try await http("GET", "/metrics", port: port).status == 401, "the server's port keeps them for the admin")
        #expect(!server.standardError.contains("warning"), "loopback: \(server.standardError)")
    }

    @Test func badAddressesAreNamed() async throws {
        for value in ["abc", "70000", "host:", "127.0.0.1:port"] {
            let child = try await ChildProcess(
                ChildProcess.presencetop, ["serve", "--memory", "--port", "0", "--metrics-listen", value])
            #expect(try await child.waitForExit() != 0, "\(value)")
            #expect(
                child.standardError.contains("--metrics-listen '\(value)' is not HOST:PORT or PORT"),
                "\(child.standardError)")
        }
    }
}
