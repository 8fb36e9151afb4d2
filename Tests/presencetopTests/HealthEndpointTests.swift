import Foundation
import RTDBTestSupport
import Testing

/// `presencetop serve`'s `/healthz` and `/readyz`: the process answers; ready while every open
/// namespace's store takes writes, 503 with the reason while the disk refuses them, ready again
/// once a write is stored.
@Suite struct HealthEndpointTests {
    @Test func readinessFollowsTheDiskAndHealthTheProcess() async throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try await ChildProcess.serve(["--data", folder.path, "--lab-disk-faults"])
        let health = try await http("GET", "/healthz", port: port)
        #expect(health.status == 200 && health.body == "ok\n", "\(health)")
        #expect(health.headers["content-type"]?.hasPrefix("text/plain") == true, "\(health.headers)")
        #expect(try await http("GET", "/readyz", port: port).body == "ready\n")
        #expect(try await http("PUT", "/a.json?ns=demo", port: port, body: "0").status == 200)

        server.signal(SIGUSR1)
        #expect(await server.waitForOutput(containing: "disk is full", standardError: true))
        #expect(try await http("PUT", "/a.json?ns=demo", port: port, body: "1").status == 503)
        let refusing = try await http("GET", "/readyz", port: port)
        #expect(refusing.status == 503, "\(refusing)")
        #expect(
            refusing.body.hasPrefix("not ready: namespace demo: the disk refuses writes since "), "\(refusing.body)")
        #expect(refusing.body.split(separator: "\n").count == 1, "one line")
        #expect(try await http("GET", "/healthz", port: port).status == 200, "the process still answers")

        server.signal(SIGUSR2)
        #expect(await server.waitForOutput(containing: "given room", standardError: true))
        #expect(try await http("PUT", "/a.json?ns=demo", port: port, body: "2").status == 200)
        #expect(try await http("GET", "/readyz", port: port).status == 200)
        // Only read: other methods are refused.
        #expect(try await http("POST", "/readyz", port: port, body: "{}").status == 405)
        #expect(try await http("HEAD", "/healthz", port: port).status == 200)
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(seconds: 30) == 0)
    }

    @Test func aServerThatIsStoppingIsNotReady() async throws {
        let server = try await TestServer.start()
        #expect(try await http("GET", "/readyz", port: server.port).status == 200)
        await server.server.registry.beginStopping()
        let stopping = try await http("GET", "/readyz", port: server.port)
        #expect(stopping.status == 503 && stopping.body == "not ready: the server is stopping\n", "\(stopping)")
        await server.stop()
    }
}
