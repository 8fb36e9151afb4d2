import Foundation
import RTDBCore
import RTDBTestSupport
import RTDBWire
import Testing

@Suite struct ServeProcessTests {
    @Test func printsOneListeningLineAndStopsCleanlyOnSIGTERM() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Its raw client answers no pings: a long heartbeat, so that only the stop closes it.
        let (server, port) = try await ChildProcess.serve(["--data", directory.path, "--heartbeat-timeout", "600"])
        #expect(server.standardOutput == "listening on http://127.0.0.1:\(port)\n")
        let put = try await http("PUT", "/x.json", port: port, body: "1")
        #expect(put.status == 200)
        // A client that stays connected does not hold the stop up: the server closes its session.
        let session = try await RawTCPClient(port: port)
        try await session.upgradeToWebSocket(target: "/.ws?v=5&ns=demo")
        _ = try await session.read(until: #""t":"h""#)
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)
        #expect(try await session.readWebSocketCloseCode() == 1000)
        await session.close()
        #expect(server.standardOutput == "listening on http://127.0.0.1:\(port)\n", "logs never go to stdout")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo.sqlite").path))
    }

    @Test func acknowledgedWritesSurviveKillDashNine() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var acknowledgedSets: [Int] = []
        var acknowledgedIncrements = 0
        var sentIncrements = 0
        for round in 0..<3 {
            // Idle clients kept 600 s: a parallel run can hold this test back past the 15 s
            // heartbeat, and the server then closed the waiting client (seen once in CI).
            let (server, port) = try await ChildProcess.serve([
                "--data", directory.path, "--heartbeat-timeout", "600",
            ])
            let client = WireTestClient(url: "ws://127.0.0.1:\(port)/.ws?v=5&ns=demo")
            _ = try await client.hello()
            var pending: [Int: (kind: String, value: Int)] = [:]
            for index in 0..<400 {
                let value = round * 1_000 + index
                let number = await client.send(.put(path: Path("sets/v\(value)"), data: .int(Int64(value)), hash: nil))
                pending[number] = ("set", value)
                let increment = await client.send(
                    .put(path: Path("counter"), data: [".sv": ["increment": 1]], hash: nil))
                pending[increment] = ("increment", 0)
                sentIncrements += 1
            }
            // Take some acknowledgements, then kill the server in the middle of the stream.
            var seen = 0
            while seen < 300 {
                if case .response(let number, .ok, _) = try await client.next(), let write = pending[number] {
                    if write.kind == "set" { acknowledgedSets.append(write.value) } else { acknowledgedIncrements += 1 }
                    seen += 1
                }
            }
            server.signal(SIGKILL)
            while let message = try? await client.next(within: 2) {
                if case .response(let number, .ok, _) = message, let write = pending[number] {
                    if write.kind == "set" { acknowledgedSets.append(write.value) } else { acknowledgedIncrements += 1 }
                }
            }
            _ = try await server.waitForExit()
            await client.close()
        }
        let (server, port) = try await ChildProcess.serve(["--data", directory.path])
        let data = try #require(try await http("GET", "/.json", port: port).json)
        for value in acknowledgedSets {
            #expect(data["sets"]?["v\(value)"]?.intValue == Int64(value), "acknowledged set v\(value) lost")
        }
        let counter = Int(data["counter"]?.intValue ?? 0)
        #expect(counter >= acknowledgedIncrements, "every acknowledged increment is there")
        #expect(counter <= sentIncrements)
        server.signal(SIGTERM)
        _ = try await server.waitForExit()
    }

    @Test func badFlagsGetClearErrors() async throws {
        let cases: [([String], String)] = [
            (["serve", "--port", "70000"], "--port must be between 0 and 65535"),
            (["serve", "--memory", "--data", "/tmp/x"], "--data and --memory cannot be used together"),
            (["serve", "--namespace", "Bad NS"], "--namespace 'Bad NS'"),
            (
                ["serve", "--heartbeat-timeout", "0"],
                "--heartbeat-timeout must be a number of seconds from 0.001 to 86400, not 0"
            ),
            (["serve", "--bogus"], "Unknown option '--bogus'"),
            (["serve", "--tls-cert", "/tmp/c.pem"], "--tls-cert and --tls-key go together"),
        ]
        for (arguments, message) in cases {
            let child = try await ChildProcess(ChildProcess.presencetop, arguments)
            let status = try await child.waitForExit()
            #expect(status != 0)
            #expect(child.standardError.contains(message), "\(arguments): \(child.standardError)")
        }
        let version = try await ChildProcess(ChildProcess.presencetop, ["--version"])
        #expect(try await version.waitForExit() == 0)
        #expect(version.standardOutput == "0.1.0\n")
    }

    /// `--rules`: a file that does not check stops the server before it starts, with the file,
    /// line and column; the shipped presence rules print and are enforced.
    @Test func rulesFromAFile() async throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.rules.json")
        try "{\n  \"rules\": {\n    \".write\": \"newdata.exists()\"\n  }\n}\n".write(
            to: bad, atomically: true, encoding: .utf8)
        let refused = try await ChildProcess(ChildProcess.presencetop, ["serve", "--port", "0", "--rules", bad.path])
        #expect(try await refused.waitForExit() == 2)
        #expect(refused.standardError == "presencetop: \(bad.path):3:16: unknown variable 'newdata'\n")
        #expect(refused.standardOutput.isEmpty, "it never listened")

        let printed = try await ChildProcess(ChildProcess.presencetop, ["serve", "--print-presence-rules"])
        #expect(try await printed.waitForExit() == 0)
        let presence = directory.appendingPathComponent("presence.rules.json")
        try printed.standardOutput.write(to: presence, atomically: true, encoding: .utf8)
        let (server, port) = try await ChildProcess.serve(["--memory", "--rules", presence.path])
        #expect(try await http("GET", "/users.json", port: port).status == 401, "signed out")
        let owner = ["Authorization": "Bearer owner"]
        #expect(
            try await http("PUT", "/users/sam/lastOnline.json", port: port, body: "1", headers: owner).status == 200)
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }

    /// Bound beyond loopback without a secret, every client is admin: `serve` says so at start.
    @Test func servingBeyondLoopbackWithoutASecretIsSaidLoudly() async throws {
        let (open, _) = try await ChildProcess.serve(["--memory", "--host", "0.0.0.0"])
        #expect(
            open.standardError.contains("WARNING: serving on 0.0.0.0 without --auth-secret"), "\(open.standardError)")
        #expect(open.standardError.contains("is admin"))
        open.signal(SIGTERM)
        #expect(try await open.waitForExit() == 0)
        for arguments in [["--memory"], ["--memory", "--host", "0.0.0.0", "--auth-secret", "s3cret"]] {
            let (quiet, _) = try await ChildProcess.serve(arguments)
            #expect(!quiet.standardError.contains("WARNING"), "\(arguments): \(quiet.standardError)")
            quiet.signal(SIGTERM)
            #expect(try await quiet.waitForExit() == 0)
        }
        let help = try await ChildProcess(ChildProcess.presencetop, ["serve", "--help"])
        #expect(try await help.waitForExit() == 0)
        let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("reach the port is admin ('owner')"), "\(help.standardOutput)")
    }
}
