import Foundation
import RTDBTestSupport
import Testing

/// An app's own presence layout, read by the real binary in a real terminal.
@Suite(.serialized) struct LayoutDashboardTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func statusNodesShowAndWhatFitsNoLayoutIsListed() async throws {
        let (server, port) = try await ChildProcess.serve(["--memory"])
        defer { server.signal(SIGTERM) }
        // /status/<uid> as Firebase's status-node sample writes it, and one entry of another shape.
        _ = try await http(
            "PUT", "/status.json?ns=demo", port: port,
            body: #"""
                {"alice": {"state": "online", "last_changed": 1764000000000},
                 "bob": {"state": "offline", "last_changed": 1763990000000},
                 "zed": "hello"}
                """#)
        let (command, home) = try DashboardTmuxTests.command(
            "--url 'http://127.0.0.1:\(port)?ns=demo' --layout status --churn 0")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 160, height: 40)
        defer { tmux.close() }
        let (ok, screen) = try await tmux.waitFor {
            $0.contains("status online since") && $0.contains("bob") && $0.contains("1 unfit")
                && $0.contains("fits no layout: not an object (a string)")
        }
        #expect(ok, "alice online, bob offline, zed listed as unfit:\n\(screen)")
        #expect(!screen.contains("hello"), "an unfit entry's value is not shown")
        let (quit, _) = try await tmux.quit()
        #expect(quit)
        // Watching only: the lab's device writes the documented layout, so it stays out.
        let stored = try await http("GET", "/.json?ns=demo", port: port).json
        #expect(stored?.objectValue?.keys.map(\.string) == ["status"])
    }
}
