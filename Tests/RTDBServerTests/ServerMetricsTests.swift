import Foundation
import RTDBClient
import RTDBRules
import RTDBServer
import RTDBTestSupport
import Testing

/// `GET /metrics` on a real server: Prometheus' text format, and figures that move as clients
/// connect, listen, write and are refused.
@Suite(.timeLimit(.minutes(10))) struct ServerMetricsTests {
    /// The samples of a scrape, by `name{labels}` as written.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    static func scrape(_ port: Int, headers: [String: String] = [:]) async throws -> (HTTPResponse, [String: Double]) {
        let response = try await http("GET", "/metrics", port: port, headers: headers)
        return (response, samples(response.body))
    }

    @Test func theFiguresMoveWithTheClients() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = try SecurityRules(
            text: #"{"rules": {".read": true, "users": {".write": true}, "locked": {".write": false}}}"#)
        let server = try await TestServer.start(dataDirectory: folder, configure: { $0.rules = rules })
        var (response, before) = try await Self.scrape(server.port)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        // Every sample line is `name{labels} value`, every family typed.
        for line in response.body.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") || line.hasPrefix("# HELP ") { continue }
            #expect(
                line.range(
                    of: #"^[a-z_]+(\{[a-z_]+="[A-Za-z_0-9.+]*"(,[a-z_]+="[A-Za-z_0-9.+]*")*\})? [0-9.e+-]+$"#,
                    options: .regularExpression) != nil, "\(line)")
        }
        #expect(before["presencetop_sessions_open"] == 0)
        #expect(before["presencetop_writes_total{outcome=\"stored\"}"] == 0)
        #expect((before["process_resident_memory_bytes"] ?? 0) > 1_000_000)
        #expect((before["process_open_fds"] ?? 0) > 3)
        let start = before["process_start_time_seconds"] ?? 0
        #expect(abs(start - Date().timeIntervalSince1970) < 86_400, "started today: \(start)")

        let client = Database(url: "\(server.baseURL)?ns=demo")
        defer { client.close() }
        let heard = Recorder<Int>()
        client.reference(withPath: "users").observe(.value) { _ in heard.record(1) }
        for index in 0..<3 { try await client.reference(withPath: "users/u\(index)").setValue(index) }
        await #expect(throws: (any Error).self) { try await client.reference(withPath: "locked").setValue(1) }

        let after: [String: Double]
        (response, after) = try await Self.scrape(server.port)
        #expect(after["presencetop_sessions_open"] == 1, "\(response.body)")
        #expect(after["presencetop_sessions_opened_total"] == 1)
        #expect(after["presencetop_listens_active"] == 1)
        #expect(after["presencetop_namespaces_open"] == 1)
        #expect(after["presencetop_writes_total{outcome=\"stored\"}"] == 3)
        #expect(after["presencetop_writes_total{outcome=\"rules_denied\"}"] == 1)
        #expect(after["presencetop_rules_denials_total{operation=\"set\"}"] == 1)
        #expect(after["presencetop_rules_denials_total{operation=\"read\"}"] == 0)
        #expect(after["presencetop_rules_denials_total{operation=\"on_disconnect\"}"] == 0)
        #expect((after["presencetop_group_commit_writes_count"] ?? 0) >= 1)
        #expect(after["presencetop_group_commit_writes_sum"] == 3)
        #expect(after["presencetop_store_failures_total"] == 0)
        #expect(after["presencetop_write_ack_seconds_count"] == 3, "each client write acknowledged")
        #expect((after["process_cpu_seconds_total"] ?? 0) > 0)
        await server.stop()
    }

    @Test func restBytesAreCountedBothWays() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await TestServer.start(dataDirectory: folder)
        let (first, before) = try await Self.scrape(server.port)
        let value = "\"" + String(repeating: "x", count: 10_000) + "\""
        #expect(try await http("PUT", "/a.json?ns=demo", port: server.port, body: value).status == 200)
        let read = try await http("GET", "/a.json?ns=demo", port: server.port)
        #expect(read.body == value)
        let (_, after) = try await Self.scrape(server.port)
        let received =
            (after["presencetop_connection_received_bytes_total"] ?? 0)
            - (before["presencetop_connection_received_bytes_total"] ?? 0)
        let sent =
            (after["presencetop_connection_sent_bytes_total"] ?? 0)
            - (before["presencetop_connection_sent_bytes_total"] ?? 0)
        // The PUT's body came in; its echo, the GET's answer and the first scrape went out.
        #expect(received >= 10_002 && received < 11_000, "\(received)")
        #expect(sent >= Double(2 * 10_002 + first.body.utf8.count), "\(sent)")
        #expect(after["presencetop_websocket_received_bytes_total"] == 0, "no WebSocket in this")
        await server.stop()
    }

    @Test func withASecretTheyAreTheAdminsAndNeverShowIt() async throws {
        let secret = "metrics-secret-\(UUID().uuidString)"
        let server = try await TestServer.start(configure: { $0.authSecret = secret })
        let (refused, _) = try await Self.scrape(server.port)
        #expect(refused.status == 401, "\(refused)")
        #expect(!refused.body.contains(secret))
        let (owner, _) = try await Self.scrape(server.port, headers: ["Authorization": "Bearer owner"])
        #expect(owner.status == 401, "the emulator's owner is not the admin here")
        let (admin, samples) = try await Self.scrape(server.port, headers: ["Authorization": "Bearer \(secret)"])
        #expect(admin.status == 200 && samples["presencetop_sessions_open"] == 0)
        #expect(!admin.body.contains(secret))
        #expect(try await http("POST", "/metrics", port: server.port, body: "{}").status == 405)
        await server.stop()
    }

    /// Sessions that end are counted by why: the client's close, a protocol error, silence past
    /// the heartbeat timeout (time moved by hand), and the server's stop.
    @Test func endedSessionsAreCountedByReason() async throws {
        let time = TestTime()
        let server = try await TestServer.start(heartbeatTimeout: .seconds(15), time: time.source)
        func connect() async throws -> RawTCPClient {
            let raw = try await RawTCPClient(port: server.port)
            try await raw.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
            _ = try await raw.read(until: #""t":"h""#)
            return raw
        }
        func closed(_ reason: String) async throws -> Double {
            try await Self.scrape(server.port).1["presencetop_sessions_closed_total{reason=\"\(reason)\"}"] ?? -1
        }
        // The client closes.
        let leaving = try await connect()
        try await leaving.sendWebSocketText(#"{"t":"d","d":{"r":1,"a":"o","b":{"p":"/left","d":true}}}"#)
        _ = try await leaving.read(until: #""r":1"#)
        try await leaving.sendWebSocketFrame(opcode: 0x8, payload: [0x03, 0xE8])
        let changes = server.server.metrics.changes
        #expect(try await until(changes) { try await closed("client_close") == 1 })
        let (_, afterLeaving) = try await Self.scrape(server.port)
        #expect(afterLeaving["presencetop_ondisconnect_run_total"] == 1, "its onDisconnect ran")
        #expect((afterLeaving["presencetop_websocket_received_bytes_total"] ?? 0) > 60)
        #expect((afterLeaving["presencetop_websocket_sent_bytes_total"] ?? 0) > 60)
        await leaving.close()
        // The client breaks the protocol (an opcode WebSocket does not have).
        let garbled = try await connect()
        try await garbled.sendWebSocketText(#"{"t":"d","d":{"r":1,"a":"p","b":{"p":"/x","d":"#)
        try await garbled.sendWebSocketText("not json at all")
        #expect(
            try await until(changes) {
                try await Self.scrape(server.port).1["presencetop_malformed_messages_total"] == 2
            })
        await garbled.close()
        let broken = try await connect()
        try await broken.sendWebSocketFrame(opcode: 0x3, payload: [])
        #expect(try await until(changes) { try await closed("error") == 1 })
        await broken.close()
        // The client says nothing for the heartbeat timeout: three ticks of 7.5 s.
        let silent = try await connect()
        // A tick at a time, each judged before the next move: moved at once, a monitor that had
        // not yet gone back to sleep would take the three for one late tick (and only ping).
        let judged = server.server.heartbeatTicksJudged
        for step in 1...3 {
            await time.advance(by: .milliseconds(7_501))
            #expect(try await until(changes) { server.server.heartbeatTicksJudged >= judged + step })
        }
        #expect(try await until(changes) { try await closed("heartbeat_timeout") == 1 })
        await silent.close()
        // The server stops with a session open.
        let staying = try await connect()
        await server.server.registry.beginStopping()
        await staying.close()
        #expect(try await until(changes) { try await closed("server_stop") == 1 })
        let (clientClosed, errors) = (try await closed("client_close"), try await closed("error"))
        #expect(clientClosed == 2 && errors == 1, "each end counted once")
        await server.stop()
    }
}
