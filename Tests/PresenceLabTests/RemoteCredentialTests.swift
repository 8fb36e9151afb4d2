import Foundation
import PresenceLab
import RTDBClient
import RTDBCore
import RTDBTestSupport
import Testing

/// The dashboard's own REST reads of a `--url` server carry the credential it watches with.
@Suite struct RemoteCredentialTests {
    @Test func theRulesReportIsReadWithTheWatchersCredential() async throws {
        let secret = "secret-\(UUID().uuidString)"
        let server = try await TestServer.start(configure: { $0.authSecret = secret })
        var options = SimulationOptions()
        options.server = .remote(ServerTarget(host: "127.0.0.1", port: server.port, namespace: "demo"))
        options.readOnly = true

        // Without a credential the report is the admin's: refused, and said so plainly.
        let anonymous = try await Simulation.start(options)
        let refused = await Self.summary(of: anonymous)
        #expect(refused.problem?.hasPrefix("the rules report was refused (HTTP 401") == true, "\(refused)")
        await anonymous.stop()

        options.credentials = StaticTokenProvider.databaseSecret(secret)
        options.identity = "database secret (admin)"
        let admin = try await Simulation.start(options)
        let summary = await Self.summary(of: admin)
        #expect(summary.problem == nil, "\(summary)")
        #expect(!"\(refused)".contains(secret) && !"\(summary)".contains(secret))
        #expect(admin.snapshot().access.identity == "database secret (admin)")
        #expect(admin.snapshot().access.isReadOnly)
        await admin.stop()
        await server.stop()
    }

    /// The rules report as the Rules view reads it, asked again while the request only timed out
    /// (the view asks every 2 s; a loaded CI run kept the server in this process from answering
    /// one within its 5 s).
    static func summary(of simulation: Simulation) async -> RulesSummary {
        var summary = await simulation.rulesSummary()
        for _ in 0..<5 where summary.problem?.contains("error -1001") == true {
            summary = await simulation.rulesSummary()
        }
        return summary
    }
}
