import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// `presencetop watch`, the real process: JSON Lines on stdout from a real server, its metrics
/// on a listener of its own, a closed pipe and SIGTERM both ending it with status 0, and no
/// credential in anything it writes.
///
/// One at a time: each starts servers and a population.
@Suite(.serialized) struct WatchProcessTests {
    /// A home of its own for each run (this device's state, logs, no settings file).
    static func environment(_ folder: URL) -> [String: String] {
        [
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
        ]
    }

    /// The Grafana dashboard shipped for the watch's metrics.
    static let grafana = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("grafana/presencetop-watch.json")

    /// Every line of `output`, each a JSON object with a type (a line that is not fails the test).
    static func lines(_ output: String) -> [JSONValue] {
        output.split(separator: "\n").compactMap { line in
            let value = try? JSONParser.parse(String(line))
            #expect(value?["type"]?.stringValue != nil, "a JSON object with a type: \(line)")
            return value
        }
    }

    /// The port a child's `--metrics-listen` bound (its `metrics on http://HOST:PORT/metrics`
    /// line: given port 0, it picks a free one, so no other process can take it first).
    static func metricsPort(of child: ChildProcess) async throws -> Int {
        let announced = await child.waitForOutput(containing: "/metrics\n", standardError: true)
        let url = child.standardError.split(separator: "\n").first { $0.hasPrefix("metrics on http://") }
        guard announced, let port = url?.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) })
        else { throw TestFailure("no metrics listener: \(child.standardError)") }
        return port
    }

    /// The metrics `watch` serves, by series (`name{labels}` → value).
    static func metrics(of watch: ChildProcess) async throws -> [String: Double] {
        let answer = try await http("GET", "/metrics", port: try await metricsPort(of: watch))
        #expect(answer.status == 200 && answer.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        var series: [String: Double] = [:]
        for line in answer.body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            series[String(line[..<space])] = Double(line[line.index(after: space)...])
        }
        return series
    }

    @Test func theStatusLayoutOfALocalServerAsJSONLinesAndMetrics() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try await ChildProcess.serve(["--memory"])
        defer { server.signal(SIGTERM) }
        let status = #"{"ana": {"state": "online", "last_changed": 1}, "ben": {"state": "offline", "last_changed": 2}}"#
        #expect(try await http("PUT", "/status.json?ns=demo", port: port, body: status).status == 200)
        let watch = try await ChildProcess(
            ChildProcess.presencetop,
            [
                "watch", "--url", "http://127.0.0.1:\(port)?ns=demo", "--layout", "status", "--summary-every", "0",
                "--metrics-listen", "0",
            ], environment: Self.environment(folder))
        defer { watch.signal(SIGKILL) }
        #expect(await watch.waitForOutput(containing: #""type":"summary""#), "the first list:\n\(watch.standardError)")
        let first = Self.lines(watch.standardOutput)
        let presence = first.filter { $0["type"]?.stringValue == "presence" }
        #expect(presence.map { $0["user"]?.stringValue } == ["ana", "ben"])
        #expect(presence.map { $0["state"]?.stringValue } == ["online", "offline"])
        #expect(presence.allSatisfy { $0["connections"] == .null }, "the status layout lists no connections")
        #expect(presence[1]["lastOnline"] == .int(2))
        #expect(presence[0]["databases"] == .array([.string("127.0.0.1:\(port) ns=demo")]))
        let summary = first.first { $0["type"]?.stringValue == "summary" }
        #expect(summary?["users"] == .int(2) && summary?["online"] == .int(1) && summary?["connections"] == .null)
        #expect(first.contains { $0["type"]?.stringValue == "connection" && $0["state"]?.stringValue == "connected" })

        // A change: one line, for the user who changed.
        #expect(
            try await http("PATCH", "/status/ben.json?ns=demo", port: port, body: #"{"state": "online"}"#).status == 200
        )
        #expect(await watch.waitForOutput(containing: #""user":"ben","state":"online""#))
        let later = Self.lines(watch.standardOutput).dropFirst(first.count)
        #expect(later.count == 1, "only ben: \(later)")

        // The metrics agree with the lines.
        let series = try await Self.metrics(of: watch)
        #expect(series["presencetop_watch_users"] == 2 && series["presencetop_watch_users_online"] == 2)
        #expect(series["presencetop_watch_connections"] == nil, "no connections series for the status layout")
        #expect(series["presencetop_watch_connected{database=\"127.0.0.1:\(port) ns=demo\"}"] == 1)
        #expect(series["presencetop_watch_presence_changes_total"] == 3)
        #expect(series["presencetop_watch_list_loaded"] == 1 && (series["process_resident_memory_bytes"] ?? 0) > 0)

        watch.signal(SIGTERM)
        #expect(try await watch.waitForExit() == 0, "SIGTERM ends it with status 0: \(watch.standardError)")
    }

    @Test func aReaderThatGoesEndsTheWatchCleanly() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The embedded lab, its users in the connections layout; a summary each second keeps lines
        // coming after head has had its three.
        let command =
            "set -o pipefail; '\(ChildProcess.presencetop.path)' watch --memory --users 2 --churn 0 "
            + "--summary-every 1 | head -n 3"
        let shell = try await ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", command], environment: Self.environment(folder))
        #expect(try await shell.waitForExit() == 0, "the watch's status with a closed pipe: \(shell.standardError)")
        #expect(Self.lines(shell.standardOutput).count == 3)
        #expect(!shell.standardError.contains("Error"), "\(shell.standardError)")
    }

    @Test func theLabsUsersListTheirConnectionsAndGrafanaFindsItsSeries() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try await ChildProcess(
            ChildProcess.presencetop,
            ["watch", "--memory", "--users", "2", "--devices", "2", "--churn", "0", "--metrics-listen", "0"],
            environment: Self.environment(folder))
        defer { watch.signal(SIGKILL) }
        // Both devices of a simulated user connected: its line says 2 connections.
        #expect(await watch.waitForOutput(containing: #""state":"online","connections":2"#), "\(watch.standardError)")
        let summary = Self.lines(watch.standardOutput).first { $0["type"]?.stringValue == "summary" }
        #expect(summary?["pendingWrites"] != nil, "this device's queue, in the lab: \(String(describing: summary))")
        // Every series the shipped Grafana dashboard queries is one the watch serves.
        let series = Set(try await Self.metrics(of: watch).keys.map { String($0.prefix { $0 != "{" }) })
        let dashboard = try JSONParser.parse(String(contentsOf: Self.grafana, encoding: .utf8))
        let queried = (dashboard["panels"]?.arrayValue ?? []).flatMap { panel in
            (panel["targets"]?.arrayValue ?? []).compactMap { $0["expr"]?.stringValue }.flatMap { expression in
                expression.matches(of: /\b(?:presencetop|process)_[a-z_]+\b/).map { String($0.output) }
            }
        }
        #expect(queried.count >= 12, "\(queried)")
        for name in Set(queried).sorted() {
            #expect(series.contains(name), "\(name) is queried but not served")
        }
        watch.signal(SIGINT)
        #expect(try await watch.waitForExit() == 0)
    }

    @Test(.enabled(if: InteropPython.required, "needs .venv (made by .ci/run; required when CI=true)"))
    func aServiceAccountsWatchKeepsEveryCredentialOutOfWhatItWrites() async throws {
        guard InteropPython.url != nil else {
            Issue.record("CI makes the venv (.ci/run)")
            return
        }
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "server-secret-\(UUID().uuidString)"
        let (server, port) = try await ChildProcess.serve(
            ["--memory"], environment: ["PRESENCETOP_AUTH_SECRET": secret])
        defer { server.signal(SIGTERM) }
        let status = #"{"ana": {"state": "online", "last_changed": 1}}"#
        #expect(try await http("PUT", "/status.json?ns=demo&auth=\(secret)", port: port, body: status).status == 200)
        // A real database checks the access token with Google; ours takes its secret as the admin
        // credential, so that is what the stand-in issues.
        let standIn = try await GoogleStandIn.start(accessToken: secret)
        defer { standIn.stop() }
        let log = folder.appendingPathComponent("watch.log")
        let watch = try await ChildProcess(
            ChildProcess.presencetop,
            [
                "watch", "--url", "http://127.0.0.1:\(port)?ns=demo", "--credentials", standIn.keyFile, "--layout",
                "status", "--metrics-listen", "0", "--log", log.path,
            ], environment: Self.environment(folder))
        defer { watch.signal(SIGKILL) }
        #expect(await watch.waitForOutput(containing: #""user":"ana","state":"online""#), "\(watch.standardError)")
        let exchange = try #require(standIn.requests.first)
        #expect(exchange["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let metrics = try await Self.metrics(of: watch)
        watch.signal(SIGTERM)
        #expect(try await watch.waitForExit() == 0)
        let key = try String(contentsOfFile: standIn.keyFile, encoding: .utf8)
        let privateKey = try #require(JSONParser.parse(key)["private_key"]?.stringValue)
        let keyLine = String(privateKey.split(separator: "\n").dropFirst().first ?? "?")
        let written = [
            watch.standardOutput, watch.standardError, metrics.keys.joined(separator: "\n"),
            (try? String(contentsOf: log, encoding: .utf8)) ?? "",
        ]
        for text in written {
            #expect(!text.contains(secret) && !text.contains("PRIVATE KEY") && !text.contains(keyLine))
        }
    }

    @Test func twoDatabasesAsOneDirectory() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, firstPort) = try await ChildProcess.serve(["--memory"])
        defer { first.signal(SIGTERM) }
        let (second, secondPort) = try await ChildProcess.serve(["--memory"])
        defer { second.signal(SIGTERM) }
        // ana is online on the second database only (its last_changed there is when it came online,
        // not a lastOnline); ben is listed on the first only.
        let a = #"{"ana": {"state": "offline", "last_changed": 5}, "ben": {"state": "offline", "last_changed": 2}}"#
        let b = #"{"ana": {"state": "online", "last_changed": 9}}"#
        #expect(try await http("PUT", "/status.json?ns=a", port: firstPort, body: a).status == 200)
        #expect(try await http("PUT", "/status.json?ns=b", port: secondPort, body: b).status == 200)
        let watch = try await ChildProcess(
            ChildProcess.presencetop,
            [
                "watch", "--url", "http://127.0.0.1:\(firstPort)?ns=a", "--layout", "status", "--url",
                "http://127.0.0.1:\(secondPort)?ns=b", "--layout", "status", "--summary-every", "0",
            ], environment: Self.environment(folder))
        defer { watch.signal(SIGKILL) }
        #expect(await watch.waitForOutput(containing: #""type":"summary""#), "\(watch.standardError)")
        let lines = Self.lines(watch.standardOutput)
        let (nameA, nameB) = ("127.0.0.1:\(firstPort) ns=a", "127.0.0.1:\(secondPort) ns=b")
        let ana = lines.last { $0["user"]?.stringValue == "ana" }
        #expect(ana?["state"]?.stringValue == "online", "online if online on any: \(String(describing: ana))")
        #expect(ana?["databases"] == .array([.string(nameA), .string(nameB)]) && ana?["lastOnline"] == .int(5))
        let ben = lines.last { $0["user"]?.stringValue == "ben" }
        #expect(ben?["databases"] == .array([.string(nameA)]))
        let summary = lines.first { $0["type"]?.stringValue == "summary" }
        #expect(summary?["users"] == .int(2) && summary?["online"] == .int(1))
        let databases = summary?["databases"]?.arrayValue ?? []
        #expect(databases.map { $0["database"]?.stringValue } == [nameA, nameB])
        let connections = lines.filter {
            $0["type"]?.stringValue == "connection" && $0["state"]?.stringValue == "connected"
        }
        #expect(Set(connections.compactMap { $0["database"]?.stringValue }) == [nameA, nameB])

        // The second database lost: its watcher's connection says so, and the watch goes on.
        second.signal(SIGKILL)
        #expect(
            await watch.waitForOutput(containing: #""database":"\#(nameB)","state":"waiting""#),
            "\(watch.standardOutput)")
        watch.signal(SIGTERM)
        #expect(try await watch.waitForExit() == 0)
    }

    @Test func badFlagsAreNamedBeforeAnythingStarts() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], String)] = [
            (["--summary-every", "-1"], "--summary-every"),
            (["--summary-every", "nan"], "--summary-every"),
            (["--metrics-listen", "nope"], "--metrics-listen 'nope'"),
            (["--metrics-listen", "127.0.0.1:99999"], "--metrics-listen '127.0.0.1:99999'"),
            (["--layout", "status"], "--layout status reads an app's own presence and goes with --url"),
            (["--url", "http://127.0.0.1:1?ns=a", "--layout", "rings"], "--layout 'rings'"),
        ]
        for (arguments, named) in cases {
            let watch = try await ChildProcess(
                ChildProcess.presencetop, ["watch"] + arguments, environment: Self.environment(folder))
            #expect(try await watch.waitForExit() == 64, "\(arguments)")
            #expect(watch.standardError.contains(named), "\(arguments): \(watch.standardError)")
            #expect(watch.standardOutput.isEmpty, "nothing on stdout: \(watch.standardOutput)")
        }
    }
}
