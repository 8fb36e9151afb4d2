import Foundation
import RTDBTestSupport
import Testing

/// Three databases as one directory, in a real terminal: three `presencetop serve` processes, the
/// second behind `presencetop proxy` and in the status layout, the third readable only with its
/// own database secret.
@Suite(.serialized) struct ShardedDashboardTests {
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func threeDatabasesAreOneDirectoryAndABlackholedOneGoesStaleAlone() async throws {
        let secret = "secret-\(UUID().uuidString)"
        let (first, one) = try await ChildProcess.serve(["--memory", "--namespace", "a"])
        let (second, two) = try await ChildProcess.serve(["--memory", "--namespace", "b"])
        let (third, three) = try await ChildProcess.serve(["--memory", "--namespace", "c", "--auth-secret", secret])
        let (proxy, proxied, control) = try await ProxyProcessTests.proxy(upstream: two, ["--link", "lan"])
        defer { for child in [first, second, third, proxy] { child.signal(SIGTERM) } }
        _ = try await http(
            "PUT", "/users.json?ns=a", port: one,
            body:
                #"{"ana": {"connections": {"-Nana": true}, "lastOnline": 1764000000000}, "cy": {"lastOnline": 1764000001000}}"#
        )
        _ = try await http(
            "PUT", "/status.json?ns=b", port: two,
            body: #"{"bo": {"state": "online", "last_changed": 1764000002000}}"#)
        _ = try await http(
            "PUT", "/users/cy.json?ns=c&auth=\(secret)", port: three, body: #"{"lastOnline": 1764000003000}"#)

        let (command, home) = try DashboardTmuxTests.command(
            "--url 'http://127.0.0.1:\(one)?ns=a' --churn 0"
                + " --url 'http://127.0.0.1:\(proxied)?ns=b' --layout status"
                + " --url 'http://127.0.0.1:\(three)?ns=c' --database-secret-file secret.txt")
        defer { try? FileManager.default.removeItem(at: home) }
        try Data(secret.utf8).write(to: home.appendingPathComponent("secret.txt"))
        let tmux = try await TmuxSession(
            command: command.replacingOccurrences(
                of: "secret.txt", with: home.appendingPathComponent("secret.txt").path),
            width: 180, height: 40)
        defer { tmux.close() }
        func row(_ screen: String, _ user: String) -> String {
            screen.split(separator: "\n").first { $0.contains("│ \(user) ") }.map(String.init) ?? ""
        }
        var (ok, screen) = try await tmux.waitFor { screen in
            screen.contains("db 3 ●") && screen.contains("1 user as database secret (admin)")
                && row(screen, "bo").contains("● online") && row(screen, "ana").contains("● online")
                && row(screen, "cy").contains("○ offline")
        }
        #expect(ok, "three databases, merged:\n\(screen)")
        #expect(screen.contains("db 1 ●") && screen.contains("db 2 ●"), "\(screen)")
        // cy: last online as the third database has it (the latest of the two).
        #expect(row(screen, "cy").contains(Self.timeOfDay(1_764_000_003_000)), "\(row(screen, "cy"))")

        // The second goes into a blackhole: its users turn stale, not offline; the others stay live.
        _ = try await http("PUT", "/link", port: control, body: #"{"mode":"blackhole"}"#)
        (ok, screen) = try await tmux.waitFor(seconds: 60) { screen in
            row(screen, "bo").contains("◐ online") && row(screen, "bo").contains("stale: db 2")
        }
        #expect(ok, "bo is what db 2 said last, marked stale:\n\(screen)")
        #expect(screen.contains("stale: db 2"), "the title names it:\n\(screen)")
        #expect(row(screen, "ana").contains("● online") && !row(screen, "ana").contains("stale"), "\(screen)")
        #expect(!screen.contains("stale: as of"), "the pane as a whole is live:\n\(screen)")

        // Back up: live again.
        _ = try await http("PUT", "/link", port: control, body: #"{"mode":"up"}"#)
        (ok, screen) = try await tmux.waitFor(seconds: 30) {
            row($0, "bo").contains("● online") && !$0.contains("stale")
        }
        #expect(ok, "live again:\n\(screen)")
        (ok, screen) = try await tmux.quit(home: home)
        #expect(ok, "q exits 0:\n\(screen)")

        // The same three from the settings file's [[database]] tables, each with its own options.
        let settings = home.appendingPathComponent("config/presencetop")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        let toml = """
            [options]
            churn = 0

            [[database]]
            url = "http://127.0.0.1:\(one)?ns=a"

            [[database]]
            url = "http://127.0.0.1:\(proxied)?ns=b"
            layout = "status"

            [[database]]
            url = "http://127.0.0.1:\(three)?ns=c"
            database-secret-file = "\(home.appendingPathComponent("secret.txt").path)"
            """
        try Data(toml.utf8).write(to: settings.appendingPathComponent("config.toml"))
        let (plain, _) = try DashboardTmuxTests.command(home: home)
        let again = try await TmuxSession(command: plain, width: 180, height: 40)
        defer { again.close() }
        (ok, screen) = try await again.waitFor { screen in
            screen.contains("1 user as database secret (admin)") && row(screen, "bo").contains("● online")
                && row(screen, "cy").contains(Self.timeOfDay(1_764_000_003_000))
        }
        #expect(ok, "three databases from the settings file:\n\(screen)")
        (ok, screen) = try await again.quit(home: home)
        #expect(ok, "q exits 0:\n\(screen)")
    }

    /// `HH:MM:SS` in UTC, as the dashboard shows a time in tmux (TZ unset).
    static func timeOfDay(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
