import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

/// A `serve` killed with SIGKILL leaves no ghost: the onDisconnect writes of its sessions are on
/// disk, and after a restart they run for the sessions that do not come back (after the heartbeat
/// timeout) and for those that do (when they present their old session with `ls=`), once each.
@Suite struct DurableOnDisconnectTests {
    static let devices = 20
    /// The restarted server's heartbeat timeout: how long a session of the killed one has to return.
    static let grace = 6

    /// One device running the documented presence flow over a raw protocol connection, plus an
    /// onDisconnect increment that counts how often its writes ran.
    struct Device {
        let uid: String
        let client: WireTestClient
        let sessionID: String
        let entry: String

        static func connect(_ index: Int, port: Int, round: Int, previous: String? = nil) async throws -> Device {
            let uid = "u\(index)"
            let ls = previous.map { "&ls=\($0)" } ?? ""
            let client = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo\(ls)")
            let hello = try await client.hello()
            let entry = "r\(round)"
            let requests: [ClientRequest] = [
                .auth(credential: AuthToken.emulatorToken(uid: uid, lifetime: 1 << 30), authVariable: nil),
                .onDisconnectPut(path: Path("users/\(uid)/connections/\(entry)"), data: .null),
                .onDisconnectPut(path: Path("users/\(uid)/lastOnline"), data: [".sv": "timestamp"]),
                .onDisconnectPut(path: Path("counters/\(uid)/taps"), data: [".sv": ["increment": 1]]),
                .put(
                    path: Path("users/\(uid)/connections/\(entry)"),
                    data: ["device": "phone", "connectedAt": [".sv": "timestamp"]], hash: nil),
            ]
            for request in requests {
                let answer = try await client.call(request)
                guard answer.status == .ok else { throw TestFailure("\(uid): \(request) got \(answer)") }
            }
            return Device(uid: uid, client: client, sessionID: hello.sessionID, entry: entry)
        }
    }

    /// A server on `directory`; its heartbeat timeout is `grace` unless said otherwise.
    private static func serve(_ directory: URL, rules: URL, heartbeat: Int = grace) async throws -> (ChildProcess, Int)
    {
        try await ChildProcess.serve([
            "--data", directory.path, "--rules", rules.path, "--heartbeat-timeout", String(heartbeat), "--log-level",
            "info",
        ])
    }

    private static func presenceRules(in directory: URL) async throws -> URL {
        let printer = try await ChildProcess(ChildProcess.presencetop, ["serve", "--print-presence-rules"])
        #expect(try await printer.waitForExit() == 0)
        let file = directory.appendingPathComponent("presence.rules.json")
        try printer.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The stored data, read as the admin.
    private static func read(_ path: String, port: Int) async throws -> JSONValue {
        let response = try await http("GET", "/\(path).json?auth=owner", port: port)
        guard response.status == 200, let json = response.json else { throw TestFailure("GET \(path): \(response)") }
        return json
    }

    private static func connections(of uid: String, port: Int) async throws -> [String] {
        try await read("users/\(uid)/connections", port: port).objectValue?.keys.map(\.string).sorted() ?? []
    }

    /// A `serve` on `directory` with every device connected and signed in, killed with SIGKILL
    /// (the devices' sockets then closed, as their processes would be), and a new `serve` on the
    /// same data.
    private static func killWithDevicesAndRestart(in directory: URL) async throws -> (ChildProcess, Int, [Device]) {
        let rules = try await presenceRules(in: directory)
        // The first server is killed, never waited out: a long heartbeat, so that a loaded machine
        // connecting twenty raw clients (which answer pings only while read) cannot end the first
        // ones' sessions before the kill.
        let (killed, firstPort) = try await serve(directory, rules: rules, heartbeat: 120)
        var devices: [Device] = []
        for index in 0..<Self.devices { devices.append(try await Device.connect(index, port: firstPort, round: 1)) }
        #expect(try await read("users", port: firstPort).objectValue?.count == Self.devices)
        killed.signal(SIGKILL)
        _ = try await killed.waitForExit()
        for device in devices { await device.client.close() }
        let (server, port) = try await serve(directory, rules: rules)
        return (server, port, devices)
    }

    @Test func noGhostsAfterTheServerIsKilledAndNoSessionReturns() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, port, devices) = try await Self.killWithDevicesAndRestart(in: directory)
        defer { server.signal(SIGTERM) }
        let cleared = try await eventually(attempts: (Self.grace + 20) * 20) {
            try await Self.read("counters", port: port).objectValue?.count == Self.devices
        }
        #expect(cleared, "the killed server's sessions had their onDisconnect writes run: \(server.standardError)")
        for device in devices {
            #expect(try await Self.connections(of: device.uid, port: port) == [], "\(device.uid) has no ghost entry")
            #expect(try await Self.read("users/\(device.uid)/lastOnline", port: port).intValue != nil)
            #expect(try await Self.read("counters/\(device.uid)/taps", port: port) == .int(1), "ran once")
        }
        #expect(server.standardError.contains("20 sessions from before the restart did not come back"))
    }

    @Test func sessionsThatComeBackRunTheirOldWritesOnceAndKeepTheirNewOnes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, port, devices) = try await Self.killWithDevicesAndRestart(in: directory)
        defer { server.signal(SIGTERM) }
        // Half come back at once, presenting their old session as the SDKs do (`ls=`).
        let returning = devices.prefix(Self.devices / 2)
        var returned: [Device] = []
        for device in returning {
            let index = Int(device.uid.dropFirst()) ?? 0
            returned.append(try await Device.connect(index, port: port, round: 2, previous: device.sessionID))
        }
        // The returning half's old writes ran when they came back, before their new entry was written.
        for device in returned {
            #expect(
                try await Self.connections(of: device.uid, port: port) == ["r2"], "\(device.uid): only the new entry")
            #expect(try await Self.read("counters/\(device.uid)/taps", port: port) == .int(1))
        }
        // The rest run after the grace period; the returned half keeps exactly its new entry.
        let cleared = try await eventually(attempts: (Self.grace + 20) * 20) {
            try await Self.read("counters", port: port).objectValue?.count == Self.devices
        }
        #expect(cleared, "\(server.standardError)")
        for device in devices.suffix(Self.devices / 2) {
            #expect(try await Self.connections(of: device.uid, port: port) == [], "\(device.uid) has no ghost entry")
            #expect(try await Self.read("users/\(device.uid)/lastOnline", port: port).intValue != nil)
            #expect(try await Self.read("counters/\(device.uid)/taps", port: port) == .int(1))
        }
        for device in returned {
            #expect(try await Self.connections(of: device.uid, port: port) == ["r2"], "\(device.uid): no double firing")
            #expect(try await Self.read("counters/\(device.uid)/taps", port: port) == .int(1))
        }
        #expect(server.standardError.contains("10 sessions from before the restart did not come back"))
        // Their new registrations are live (and stored): closing them runs each once more.
        for device in returned { await device.client.close() }
        let gone = try await eventually(attempts: 400) {
            try await Self.read("users", port: port).objectValue?.values.allSatisfy { $0["connections"] == nil } == true
        }
        #expect(gone)
        for device in returned { #expect(try await Self.read("counters/\(device.uid)/taps", port: port) == .int(2)) }
    }
}
