import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

/// Namespaces cannot be exhausted: a real `serve` under a lowered descriptor limit.
@Suite struct NamespaceLimitTests {
    static let signedInRules = #"{"rules": {".read": "auth != null", ".write": "auth != null"}}"#

    /// The namespace files the process holds open now (from /proc).
    static func openNamespaceFiles(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") }
            .filter { $0.hasSuffix(".sqlite") }
    }

    static func openDescriptors(of pid: Int32) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// Was: each signed-out read of a new namespace created its files before the rules refused
    /// it, and never closed them; about 165 such requests made every new namespace answer 500.
    @Test func refusedRequestsCreateNothingAndIdleNamespacesClose() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let rules = directory.appendingPathComponent("rules.json")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.signedInRules.write(to: rules, atomically: true, encoding: .utf8)
        let (server, port) = try await ChildProcess.serve(
            ["--data", data.path, "--rules", rules.path, "--max-open-namespaces", "4"], descriptorLimit: 64)
        defer { server.signal(SIGKILL) }

        for index in 0..<200 {
            let read = try await http("GET", "/x.json?ns=probe-\(index)", port: port)
            #expect(read.status == 401, "\(index): \(read.status) \(read.body)")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []
        #expect(files.isEmpty, "a refused request creates nothing: \(files.prefix(5))")

        // Writes to five times as many namespaces as may be open: each stored, the idle ones
        // closed, and every one read back (opened again).
        for index in 0..<20 {
            let put = try await http("PUT", "/x.json?ns=w\(index)&auth=owner", port: port, body: "\(index)")
            #expect(put.status == 200, "\(index): \(put.body)")
            #expect(Self.openNamespaceFiles(of: server.pid).count <= 4, "\(Self.openNamespaceFiles(of: server.pid))")
        }
        for index in 0..<20 {
            #expect(try await http("GET", "/x.json?ns=w\(index)&auth=owner", port: port).json == .int(Int64(index)))
        }
        #expect(server.isRunning)
    }

    /// Out of descriptors with every open namespace in use: a write to a new one gets 503 at once,
    /// the sessions already open go on, and once some end the new namespace opens.
    @Test func runningOutOfDescriptorsAnswers503AndKeepsSessions() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = 48
        let (server, port) = try await ChildProcess.serve(
            // A long heartbeat: its sessions must outlive a loaded machine's late pongs.
            ["--data", directory.path, "--max-open-namespaces", "1000", "--heartbeat-timeout", "600"],
            descriptorLimit: limit)
        defer { server.signal(SIGKILL) }
        func session(_ namespace: String) async throws -> WireTestClient {
            let client = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=\(namespace)")
            _ = try await client.hello()
            return client
        }
        var sessions: [WireTestClient] = []
        var opened = 0
        // Each namespace with a session holds 4 descriptors (its file, WAL, shared memory and the
        // socket). Fill up to 2 free: the next request's socket takes one, and a namespace's
        // file cannot open in the last.
        while limit - Self.openDescriptors(of: server.pid) > 2, opened < 40 {
            let free = limit - Self.openDescriptors(of: server.pid)
            if free >= 6 {
                let put = try await http("PUT", "/x.json?ns=busy\(opened)&auth=owner", port: port, body: "1")
                #expect(put.status == 200, "\(put.body)")
                sessions.append(try await session("busy\(opened)"))
                opened += 1
            } else {
                sessions.append(try await session("busy0"))  // one descriptor more
            }
        }
        let refused = try await http("PUT", "/x.json?ns=fresh&auth=owner", port: port, body: "1")
        #expect(refused.status == 503, "\(refused.status) \(refused.body)")
        #expect(refused.json?["error"]?.stringValue?.contains("cannot") == true, "\(refused.body)")

        // The sessions already open carry on.
        let first = try #require(sessions.first)
        #expect(try await first.call(.put(path: Path("still"), data: "here", hash: nil)).status == .ok)
        #expect(try await first.call(.get(path: Path("still"), query: .default)).data == "here")

        // Sessions end; their namespaces become idle and close, and the new one opens.
        for client in sessions.suffix(from: sessions.count / 2) { await client.close() }
        #expect(
            try await eventually {
                try await http("PUT", "/x.json?ns=fresh&auth=owner", port: port, body: "1").status == 200
            })
        #expect(try await http("GET", "/still.json?ns=busy0&auth=owner", port: port).json == "here")
        for client in sessions.prefix(sessions.count / 2) { await client.close() }
        #expect(server.isRunning)
    }
}
