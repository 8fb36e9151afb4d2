import Foundation
import RTDBCore
import RTDBTestSupport
import Testing

/// The dashboard attached through a standalone link (`presencetop proxy`) drives it: its network
/// keys change the proxy, and the Connection pane shows the proxy's state, read from its control.
@Suite(.serialized) struct DashboardProxyTmuxTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func theNetworkKeysDriveTheProxy() async throws {
        let (server, port) = try await ChildProcess.serve(["--memory", "--namespace", "presencetop"])
        let (proxy, proxied, control) = try await ProxyProcessTests.proxy(upstream: port, ["--link", "lan"])
        let (command, home) = try DashboardTmuxTests.command(
            "--url 'http://127.0.0.1:\(proxied)?ns=presencetop' --proxy-control http://127.0.0.1:\(control)")
        defer { try? FileManager.default.removeItem(at: home) }
        // The tallest Events pane (eight lines); the proxy's own line is still scrolled to below.
        let tmux = try await TmuxSession(command: command, width: 120, height: 44)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("proxy up · 1 ms") }
        #expect(ok, "the proxy's state on the link line:\n\(screen)")

        try await tmux.send("b")
        (ok, screen) = try await tmux.waitFor { $0.contains("proxy blackhole") && $0.contains("proxy now blackhole") }
        #expect(ok, "b puts the proxy in a blackhole:\n\(screen)")
        #expect(try await http("GET", "/link", port: control).json?["mode"] == "blackhole")

        try await tmux.send("b")
        (ok, screen) = try await tmux.waitFor { $0.contains("proxy up ·") }
        #expect(ok, "b again brings it back:\n\(screen)")
        // The device's reconnection after the blackhole adds a burst of events at the same moment
        // (eight lines in CI, as many as the pane holds), so the proxy's own line is looked for by
        // scrolling the Events pane back to it, not by catching it before it scrolls away.
        (ok, screen) = try await Self.scrollEvents(tmux, to: "proxy now up")
        #expect(ok, "the events say so:\n\(screen)")
        #expect(try await http("GET", "/link", port: control).json?["mode"] == "up")

        // Driven by something else, the pane follows within its poll.
        _ = try await http("PUT", "/link", port: control, body: #"{"preset":"mobile"}"#)
        (ok, screen) = try await tmux.waitFor { $0.contains("proxy up · 60 ms ± 40 ms") }
        #expect(ok, "the pane reads the proxy's state:\n\(screen)")
        (ok, screen) = try await tmux.quit(home: home)
        #expect(ok, "q exits 0:\n\(screen)")
        proxy.signal(SIGTERM)
        _ = try await proxy.waitForExit()
        server.signal(SIGTERM)
        _ = try await server.waitForExit()
    }

    /// Focuses the Events pane (two `Tab`s from Presence) and scrolls it a line at a time, older
    /// events coming into view, until `text` is on screen; the focus is left there.
    private static func scrollEvents(_ tmux: TmuxSession, to text: String) async throws -> (Bool, String) {
        try await tmux.send("Tab", "Tab")
        var (found, screen) = try await tmux.waitFor(seconds: 2) { $0.contains(text) }
        // A burst is a dozen lines at most; forty is far past it.
        for _ in 0..<40 where !found {
            try await tmux.send("j")
            (found, screen) = try await tmux.waitFor(seconds: 1) { $0.contains(text) }
        }
        return (found, screen)
    }
}
