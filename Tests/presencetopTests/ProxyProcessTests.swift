import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// `presencetop proxy`: a link as its own process in front of a real `serve`, driven over its
/// HTTP control interface, as a user puts any client behind it.
@Suite struct ProxyProcessTests {
    /// Starts a proxy to `upstream` and waits for its two lines; returns it, its port and its
    /// control port.
    static func proxy(upstream: Int, _ arguments: [String] = []) async throws -> (ChildProcess, Int, Int) {
        let child = try await ChildProcess(
            ChildProcess.presencetop, ["proxy", "--upstream", "127.0.0.1:\(upstream)"] + arguments)
        /// The proxied port and the control port, once the proxy has printed both lines.
        @Sendable func ports(_ output: String) -> (Int, Int)? {
            let lines = output.split(separator: "\n")
            guard lines.count >= 2, let proxied = lines[0].split(separator: " ")[2].split(separator: ":").last,
                let port = Int(proxied),
                let control = lines[1].split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) })
            else { return nil }
            return (port, control)
        }
        _ = await child.waitForOutput { ports($0.standardOutput) != nil }
        if let (port, control) = ports(child.standardOutput) { return (child, port, control) }
        if !child.isRunning { throw TestFailure("proxy exited: \(child.standardError)") }
        throw TestFailure("proxy printed no ports: \(child.standardOutput) \(child.standardError)")
    }

    @Test func theControlInterfaceReadsAndDrivesTheLinkInFrontOfARealServer() async throws {
        let (server, port) = try await ChildProcess.serve(["--memory", "--namespace", "demo"])
        let (proxy, proxied, control) = try await Self.proxy(upstream: port, ["--link", "wifi"])
        #expect(proxy.standardOutput.contains("proxy on 127.0.0.1:\(proxied) → 127.0.0.1:\(port)"))

        var link = try #require(try await http("GET", "/link", port: control).json)
        #expect(link["mode"] == "up")
        #expect(link["latency_ms"] == 15)
        #expect(link["upstream"]?.stringValue == "127.0.0.1:\(port)")

        // Through the link, a write reaches the server, and the stats count its bytes.
        #expect(try await http("PUT", "/through.json", port: proxied, body: "1").status == 200)
        #expect(try await http("GET", "/through.json", port: port).json == 1)
        link = try #require(try await http("GET", "/link", port: control).json)
        #expect((link["bytes_up"]?.intValue ?? 0) > 0, "\(link)")

        // Offline: connections are refused, and the stats say so.
        var answer = try await http("PUT", "/link", port: control, body: #"{"mode":"offline"}"#)
        #expect(answer.status == 200)
        #expect(answer.json?["mode"] == "offline")
        await #expect(throws: (any Error).self) { _ = try await http("GET", "/through.json", port: proxied) }
        link = try #require(try await http("GET", "/link", port: control).json)
        #expect((link["refused_connections"]?.intValue ?? 0) >= 1, "\(link)")

        // A request that cannot be read is refused whole, naming the problem; nothing changes.
        answer = try await http("PUT", "/link", port: control, body: #"{"mode":"moon","preset":"lan"}"#)
        #expect(answer.status == 400)
        #expect(answer.json?["error"]?.stringValue?.contains("'moon'") == true, "\(answer.body)")
        answer = try await http("PUT", "/link", port: control, body: #"{"latency_ms":"fast"}"#)
        #expect(answer.status == 400)
        #expect(answer.json?["error"]?.stringValue?.contains("latency_ms") == true, "\(answer.body)")
        link = try #require(try await http("GET", "/link", port: control).json)
        #expect(link["mode"] == "offline")
        #expect(link["latency_ms"] == 15)

        // Up again, with other conditions: the write goes through.
        answer = try await http(
            "PUT", "/link", port: control, body: #"{"mode":"up","preset":"mobile","bytes_per_second":null}"#)
        #expect(answer.json?["latency_ms"] == 60)
        #expect(answer.json?["bytes_per_second"] == .null)
        #expect(try await http("PUT", "/again.json", port: proxied, body: "2").status == 200)
        #expect(try await http("GET", "/again.json", port: port).json == 2)

        proxy.signal(SIGTERM)
        #expect(try await proxy.waitForExit() == 0, "\(proxy.standardError)")
        server.signal(SIGTERM)
        _ = try await server.waitForExit()
    }

    @Test func badFlagsGetClearErrors() async throws {
        let cases: [([String], String)] = [
            (["--upstream", "nowhere"], "--upstream 'nowhere' is not HOST:PORT"),
            (["--upstream", "127.0.0.1:1", "--link", "moon"], "--link 'moon' is not a preset"),
            (["--upstream", "127.0.0.1:1", "--mode", "sideways"], "unknown link mode 'sideways'"),
            (["--upstream", "127.0.0.1:1", "--control", "70000"], "--control must be a port"),
        ]
        for (arguments, message) in cases {
            let child = try await ChildProcess(ChildProcess.presencetop, ["proxy"] + arguments)
            #expect(try await child.waitForExit() != 0)
            #expect(child.standardError.contains(message), "\(arguments): \(child.standardError)")
        }
    }

    /// The control interface has no credential: it stays on loopback when the proxy's port is
    /// opened to the LAN, refuses a DNS-rebinding page's requests, and names what it lacks.
    @Test func theControlInterfaceKeepsToLoopbackAndToAddresses() async throws {
        let (proxy, _, control) = try await Self.proxy(upstream: 1, ["--host", "0.0.0.0"])
        #expect(proxy.standardOutput.contains("control on http://127.0.0.1:\(control)/link"), "\(proxy.standardOutput)")
        let rebound = try await http("GET", "/link", port: control, headers: ["Host": "attacker.example:\(control)"])
        #expect(rebound.status == 403 && rebound.json?["error"]?.stringValue?.contains("not an address") == true)
        let put = try await http(
            "PUT", "/link", port: control, body: #"{"mode":"offline"}"#, headers: ["Host": "rebind.example"])
        #expect(put.status == 403)
        #expect(try await http("GET", "/link", port: control).json?["mode"] == "up", "the refused PUT changed nothing")
        for host in ["localhost:\(control)", "[::1]:\(control)", "127.0.0.1"] {
            #expect(try await http("GET", "/link", port: control, headers: ["Host": host]).status == 200, "\(host)")
        }
        let unknown = try await http("GET", "/admin", port: control)
        #expect(unknown.status == 404 && unknown.json?["error"]?.stringValue?.contains("/link") == true)
        let delete = try await http("DELETE", "/link", port: control)
        #expect(delete.status == 405 && delete.headers["allow"] == "GET, PUT", "\(delete.headers)")
        proxy.signal(SIGTERM)
        #expect(try await proxy.waitForExit() == 0)
    }
}
