import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// The Grafana dashboard shipped in `grafana/` (Grafana is not packaged here): every series its
/// panels query is one `/metrics` serves.
@Suite struct GrafanaDashboardTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("grafana/presencetop-serve.json")

    @Test func everySeriesItQueriesIsServed() async throws {
        let dashboard = try JSONParser.parse(String(contentsOf: Self.file, encoding: .utf8))
        var expressions: [String] = []
        for panel in dashboard["panels"]?.arrayValue ?? [] {
            for target in panel["targets"]?.arrayValue ?? [] {
                if let expression = target["expr"]?.stringValue { expressions.append(expression) }
            }
        }
        #expect(expressions.count >= 10, "\(expressions)")
        let names = Set(
            expressions.flatMap { expression in
                expression.matches(of: /\b(?:presencetop|process)_[a-z_]+\b/).map { String($0.output) }
            })
        #expect(names.count >= 15, "\(names)")
        #expect(names.contains("presencetop_write_ack_seconds_bucket"))
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.start(dataDirectory: folder)
        _ = try await http("PUT", "/a.json?ns=demo", port: server.port, body: "1")
        let scraped = try await http("GET", "/metrics", port: server.port).body
        let served = Set(
            scraped.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init)
            })
        for name in names.sorted() {
            #expect(served.contains(name), "\(name) is queried but not served")
        }
        await server.stop()
    }
}
