import Foundation
import RTDBClient
import RTDBCore
import RTDBServer
import RTDBTestSupport
import Testing

/// A real Prometheus (Debian's, installed by `.ci/run`) scrapes a `presencetop serve` and a
/// `presencetop watch` of it during a scripted scenario; the series read back through
/// Prometheus' query API agree with what the scenario did, and Prometheus' own parser took
/// every scrape.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PrometheusScrapeTests {
    static let executable = "/usr/bin/prometheus"
    static var enabled: Bool {
        ProcessInfo.processInfo.environment["CI"] == "true" || FileManager.default.isExecutableFile(atPath: executable)
    }

    /// A port nothing listens on now (bound, read, closed).
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The value of the one series `query` gives, as Prometheus answers it now.
    static func value(_ query: String, port: Int) async throws -> Double? {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        // Nil while Prometheus is not listening yet, as when it has no such series.
        let answer = try? await http("GET", "/api/v1/query?query=\(encoded)", port: port).json
        guard let result = answer?["data"]?["result"]?.arrayValue, result.count == 1,
            let text = result[0]["value"]?.arrayValue?.last?.stringValue
        else { return nil }
        return Double(text)
    }

    @Test(.enabled(if: enabled, "needs prometheus (installed by .ci/run; required when CI=true)"))
    func theScrapedSeriesAgreeWithTheScenario() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            Issue.record("CI installs prometheus (.ci/run)")
            return
        }
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("rules.json")
        try Data(
            #"{"rules": {".read": true, "users": {".write": true}, "status": {".write": true}, "locked": {".write": false}}}"#
                .utf8
        ).write(
            to: rules)
        let (server, port) = try await ChildProcess.serve(
            ["--data", folder.appendingPathComponent("data").path, "--rules", rules.path])
        defer { server.signal(SIGTERM) }
        // The watch of the same namespace's status nodes, its metrics on a port of its own (the
        // one it picks: a port chosen here could be taken by another process before it binds).
        let watch = try await ChildProcess(
            ChildProcess.presencetop,
            [
                "watch", "--url", "http://127.0.0.1:\(port)?ns=demo", "--layout", "status",
                "--metrics-listen", "127.0.0.1:0", "--log", folder.appendingPathComponent("watch.log").path,
            ],
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        defer { watch.signal(SIGTERM) }
        let watchPort = try await WatchProcessTests.metricsPort(of: watch)
        // A server in this process as a third target: its scrapes are counted here, so the test
        // waits for Prometheus' rounds on a barrier instead of polling its answers.
        let anchor = try await TestServer.start()
        let prometheusPort = try Self.freePort()
        let configuration = folder.appendingPathComponent("prometheus.yml")
        try Data(
            """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: serve
                static_configs:
                  - targets: ["127.0.0.1:\(port)"]
              - job_name: watch
                static_configs:
                  - targets: ["127.0.0.1:\(watchPort)"]
              - job_name: anchor
                static_configs:
                  - targets: ["127.0.0.1:\(anchor.port)"]
            """.utf8
        ).write(to: configuration)
        let prometheus = try await ChildProcess(
            URL(fileURLWithPath: Self.executable),
            [
                "--config.file=\(configuration.path)",
                "--storage.tsdb.path=\(folder.appendingPathComponent("tsdb").path)",
                "--web.listen-address=127.0.0.1:\(prometheusPort)",
            ])
        defer { prometheus.signal(SIGTERM) }
        let ready = await prometheus.waitForOutput(
            containing: "Server is ready to receive web requests", standardError: true)
        #expect(ready, "Prometheus is ready:\n\(prometheus.standardError.suffix(2_000))")

        // The scenario: two users connect and listen, write five times, and one write is refused.
        let alice = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        let bob = Database(url: "http://127.0.0.1:\(port)?ns=demo")
        defer { for client in [alice, bob] { client.close() } }
        for client in [alice, bob] { client.reference(withPath: "users").observe(.value) { _ in } }
        for index in 0..<5 {
            try await (index % 2 == 0 ? alice : bob).reference(withPath: "users/u\(index)").setValue(index)
        }
        await #expect(throws: (any Error).self) { try await bob.reference(withPath: "locked").setValue(true) }
        // Presence as the status layout has it: two online, one offline.
        for (user, state) in [("ana", "online"), ("ben", "offline"), ("cy", "online")] {
            try await alice.reference(withPath: "status/\(user)").setValue(["state": state, "last_changed": 1])
        }

        // The watch has it all once it has written cy's line; three scrapes of the anchor after
        // that are two whole scrape rounds, in which every target was scraped since.
        #expect(await watch.waitForOutput(containing: #""user":"cy","state":"online""#), "\(watch.standardOutput)")
        let scraped = anchor.server.metrics.scrapes.generation
        #expect(
            try await until(anchor.server.metrics.scrapes) {
                anchor.server.metrics.scrapes.generation >= scraped + 3
            }, "Prometheus scrapes every second:\n\(prometheus.standardError.suffix(2_000))")
        let truth: [(String, Double)] = [
            ("up{job=\"serve\"}", 1),
            // The two clients and the watch's watcher.
            ("presencetop_sessions_open{job=\"serve\"}", 3),
            ("presencetop_listens_active{job=\"serve\"}", 3),
            ("presencetop_writes_total{job=\"serve\",outcome=\"stored\"}", 8),
            ("presencetop_writes_total{job=\"serve\",outcome=\"rules_denied\"}", 1),
            ("presencetop_rules_denials_total{job=\"serve\",operation=\"set\"}", 1),
            ("presencetop_namespaces_open{job=\"serve\"}", 1),
            ("up{job=\"watch\"}", 1),
            ("presencetop_watch_users", 3),
            ("presencetop_watch_users_online", 2),
            ("presencetop_watch_list_loaded", 1),
            ("presencetop_watch_connected{database=\"127.0.0.1:\(port) ns=demo\"}", 1),
            ("presencetop_watch_database_users{database=\"127.0.0.1:\(port) ns=demo\"}", 3),
        ]
        for (query, expected) in truth {
            let now = try await Self.value(query, port: prometheusPort)
            #expect(
                now == expected,
                "\(query): Prometheus says \(String(describing: now)), the scenario \(expected)\n\(prometheus.standardError.suffix(2_000))"
            )
        }
        // Prometheus' parser took every scrape: both targets are healthy, with no error.
        let targets = try await http("GET", "/api/v1/targets", port: prometheusPort).json
        let active = targets?["data"]?["activeTargets"]?.arrayValue ?? []
        #expect(active.count == 3)
        for target in active {
            // A scrape that missed its one-second deadline on a loaded machine is no parse
            // error: what this checks is that every answer Prometheus read, it could parse.
            let error = target["lastError"]?.stringValue ?? "none"
            if error.hasSuffix("context deadline exceeded") { continue }
            #expect(target["health"]?.stringValue == "up", "\(target)")
            #expect(error == "", "\(target)")
        }
        // The watch's lines say what its metrics say.
        let lines = watch.standardOutput.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let online = Set(
            lines.filter { $0["type"]?.stringValue == "presence" && $0["state"]?.stringValue == "online" }
                .compactMap { $0["user"]?.stringValue })
        #expect(online == ["ana", "cy"], "\(watch.standardOutput)")
        let samples = try await Self.value("scrape_samples_scraped{job=\"serve\"}", port: prometheusPort) ?? 0
        #expect(samples > 50, "every series scraped: \(samples)")
        await anchor.stop()
    }
}
