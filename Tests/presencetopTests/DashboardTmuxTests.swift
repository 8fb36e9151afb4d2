import Foundation
import RTDBTestSupport
import Testing

/// The dashboard as a person uses it: the real binary in a real terminal (tmux), driven by keys.
///
/// Skipped without tmux locally; in CI (`CI=true`) tmux is installed by `.ci/run` and required.
@Suite(.serialized) struct DashboardTmuxTests {
    static var enabled: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || TmuxSession.executable != nil }

    /// A command line that runs the dashboard with its own state and data folders (under `home`,
    /// a new folder unless given).
    static func command(
        _ arguments: String = "", environment extra: [String] = [], home: URL? = nil, directory: URL? = nil
    ) throws -> (String, URL) {
        let home = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("presencetop-tmux-\(UUID())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment =
            ([
                "LANG=C.UTF-8", "TERM=xterm-256color", "XDG_STATE_HOME=\(home.path)/state",
                "XDG_DATA_HOME=\(home.path)/data", "XDG_CONFIG_HOME=\(home.path)/config",
            ] + extra).joined(separator: " ")
        let folder = (directory ?? Self.packageRoot).path
        return ("cd \(folder) && env \(environment) \(ChildProcess.presencetop.path) \(arguments)", home)
    }

    /// Whether this device is connected with nothing pending and its own presence entry shows
    /// (written and acknowledged): a screen to start from.
    static func isSettled(_ screen: String) -> Bool {
        screen.contains("● connected") && screen.contains("Pending writes (0)")
            && screen.split(separator: "\n").contains { $0.contains("morgan") && $0.contains("this device") }
    }

    /// The package's folder (where `themes/` is).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The real terminal's part (the rest runs in memory, `LiveDashboardTests`): the four panes
    /// drawn by ncurses, resizes as the terminal reports them, and the screen given back on `q`.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func itDrawsInARealTerminalFollowsResizesAndGivesTheScreenBack() async throws {
        let (command, home) = try Self.command("--users 3 --churn 0")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 36)
        defer { tmux.close() }

        var (ok, screen) = try await tmux.waitFor {
            $0.contains("Connection") && $0.contains("Presence") && $0.contains("Clock skew") && Self.isSettled($0)
        }
        #expect(ok, "the four panes and a connection:\n\(screen)")

        try await tmux.resize(width: 60, height: 20)
        (ok, screen) = try await tmux.waitFor {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return $0.contains("Pending writes") && $0.contains("q quit") && lines.allSatisfy { $0.count <= 60 }
        }
        #expect(ok, "at 60×20 it still renders:\n\(screen)")

        try await tmux.resize(width: 30, height: 10)
        (ok, screen) = try await tmux.waitFor { $0.contains("terminal too small") }
        #expect(ok, "below the minimum it says so:\n\(screen)")

        (ok, screen) = try await tmux.quit()
        #expect(ok, "q exits 0:\n\(screen)")
        #expect(try await tmux.display("#{alternate_on}") == "0", "the terminal is back on the normal screen")
    }

    /// Was: the file was named after the embedded server's port, new every run, so the queue was
    /// never sent and one more file was left behind each time.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func writesQueuedOfflineAreSentAfterARestart() async throws {
        let (command, home) = try Self.command("--users 1 --churn 0")
        defer { try? FileManager.default.removeItem(at: home) }
        let state = home.appendingPathComponent("state/presencetop")
        func stateFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".sqlite") }.sorted()
        }
        do {
            let tmux = try await TmuxSession(command: command, width: 160, height: 40)
            defer { tmux.close() }
            // Its own presence entry acknowledged first, so that only the three notes wait.
            var (ok, screen) = try await tmux.waitFor(Self.isSettled)
            #expect(ok, "\(screen)")
            try await tmux.send("n")
            (ok, screen) = try await tmux.waitFor { $0.contains("disconnected") }
            for _ in 0..<3 { try await tmux.send("w") }
            // Three notes wait (the presence entry's acknowledgement may have been lost with the
            // network too, and then it waits beside them).
            (ok, screen) = try await tmux.waitFor { $0.components(separatedBy: "set         /notes").count == 4 }
            #expect(ok, "three writes wait offline:\n\(screen)")
            (ok, screen) = try await tmux.quit()
            #expect(ok, "\(screen)")
        }
        let firstRun = try stateFiles()
        #expect(firstRun.count == 1, "one file for this device: \(firstRun)")
        do {
            let (again, _) = try Self.command("--users 1 --churn 0", home: home)
            let tmux = try await TmuxSession(command: again, width: 160, height: 40)
            defer { tmux.close() }
            // Its presence entry is written after the restored queue on the same connection: once
            // the entry shows, the queue is on the server.
            var (ok, screen) = try await tmux.waitFor(Self.isSettled)
            #expect(ok, "the next run sends the queue:\n\(screen)")
            (ok, screen) = try await tmux.quit()
            #expect(ok, "\(screen)")
        }
        #expect(try stateFiles() == firstRun, "the same file, no new one")
        // The writes are on the server: read them back over REST from its data folder.
        let (server, port) = try await ChildProcess.serve([
            "--data", home.appendingPathComponent("data/presencetop/server").path, "--namespace", "presencetop",
        ])
        defer { server.signal(SIGKILL) }
        let notes = try await http("GET", "/notes/morgan.json?auth=owner", port: port)
        #expect(notes.json?.objectValue?.count == 3, "\(notes.status) \(notes.body)")
    }

    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func sigtermRestoresTheTerminal() async throws {
        let (command, home) = try Self.command("--users 1 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes") }
        #expect(ok, "\(screen)")
        try await Self.signal(SIGTERM, childOf: try await tmux.display("#{pane_pid}"))
        (ok, screen) = try await tmux.waitFor { $0.contains("EXIT=") }
        #expect(ok && screen.contains("EXIT=143"), "SIGTERM ends it cleanly, with 128 + 15:\n\(screen)")
        #expect(try await tmux.display("#{alternate_on}") == "0")
    }

    /// It attaches to another server with --url, and marks what that server no longer confirms.
    ///
    /// This device and a population are on the other server; when it goes, the panes it fed say
    /// they are stale. Was: Presence still listed everyone online with ages counting up.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func itAttachesWithUrlAndMarksWhatTheServerNoLongerConfirms() async throws {
        let (server, port) = try await ChildProcess.serve(["--memory"])
        defer { server.signal(SIGKILL) }
        let (command, home) = try Self.command("--url 'http://127.0.0.1:\(port)?ns=feeds' --simulate 2 --churn 0")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 160, height: 40)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor {
            $0.contains("● connected") && $0.contains("Presence (2 users, ") && $0.contains(" online, 5 connections)")
                && !$0.contains("stale")
        }
        #expect(ok, "this device and 2 × 2 simulated devices on the other server, live:\n\(screen)")
        server.signal(SIGKILL)
        (ok, screen) = try await tmux.waitFor {
            $0.split(separator: "\n").contains { $0.contains("Presence") && $0.contains("stale") }
                && $0.split(separator: "\n").contains { $0.contains("Clock skew") && $0.contains("stale") }
        }
        #expect(ok, "the presence list and the clock say they are stale:\n\(screen)")
        try await tmux.send("q")
    }

    /// Was: outside the repository only `default` was found, and a theme that could not be used
    /// fell back with nothing said (its notice was cleared by the first frame).
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func themesAreFoundAnywhereAndTheirProblemsAreShown() async throws {
        let elsewhere = FileManager.default.temporaryDirectory
        let (command, home) = try Self.command(
            "--users 1 --churn 0 --memory --theme solarized-dark", directory: elsewhere)
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            let tmux = try await TmuxSession(command: command, width: 120, height: 32)
            defer { tmux.close() }
            var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") }
            #expect(ok && !screen.contains("theme:"), "a shipped theme from another folder:\n\(screen)")
            // T cycles through the shipped themes: after solarized-dark come default, then ansi.
            try await tmux.send("T")
            try await tmux.send("T")
            (ok, screen) = try await tmux.waitFor { $0.contains("theme ansi") }
            #expect(ok, "the shipped themes cycle:\n\(screen)")
            try await tmux.send("q")
        }
        let (broken, _) = try Self.command(
            "--users 1 --churn 0 --memory --theme /nonexistent/theme.toml", home: home, directory: elsewhere)
        let tmux = try await TmuxSession(command: broken, width: 120, height: 32)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("theme:") }
        #expect(ok && screen.contains("/nonexistent/theme.toml"), "the problem on the status line:\n\(screen)")
        try await tmux.send("q")
        (ok, screen) = try await tmux.waitFor { $0.contains("EXIT=") }
        #expect(ok && screen.contains("presencetop: theme:"), "and printed after exit:\n\(screen)")
    }

    /// The settings file: defaults for the options, and the theme T chose, kept for the next run.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func theSettingsFileGivesDefaultsAndRemembersTheTheme() async throws {
        let (command, home) = try Self.command("--churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let settings = home.appendingPathComponent("config/presencetop/config.toml")
        try FileManager.default.createDirectory(
            at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[options]\nusers = 2\n\n[keys]\nn = \"N\"\n".write(to: settings, atomically: true, encoding: .utf8)
        do {
            let tmux = try await TmuxSession(command: command, width: 120, height: 32)
            defer { tmux.close() }
            var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("Presence (2 users") }
            #expect(ok, "users = 2 from the file:\n\(screen)")
            #expect(screen.contains("N network"), "the footer names the moved key:\n\(screen)")
            try await tmux.send("N")
            (ok, screen) = try await tmux.waitFor { $0.contains("link offline") }
            #expect(ok, "N takes the network down:\n\(screen)")
            try await tmux.send("T")
            (ok, screen) = try await tmux.waitFor { $0.contains("theme ansi") }
            #expect(ok, "\(screen)")
            try await tmux.send("q")
            (ok, screen) = try await tmux.waitFor { $0.contains("EXIT=") }
        }
        let text = try String(contentsOf: settings, encoding: .utf8)
        #expect(text == "theme = \"ansi\"\n[options]\nusers = 2\n\n[keys]\nn = \"N\"\n", "\(text)")
        // The next run starts with it: T moves on to the theme after ansi.
        let (again, _) = try Self.command("--churn 0 --memory --users 1", home: home)
        let tmux = try await TmuxSession(command: again, width: 120, height: 32)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("● connected") && $0.contains("Presence (1 user,") }
        #expect(ok, "the command line wins over the file:\n\(screen)")
        try await tmux.send("T")
        (ok, screen) = try await tmux.waitFor { $0.contains("theme light") }
        #expect(ok, "\(screen)")
        try await tmux.send("q")
    }

    static func signal(_ number: Int32, childOf pane: String) async throws {
        let pkill = URL(fileURLWithPath: "/usr/bin/pkill")
        _ = try await ChildProcess(pkill, ["-\(number)", "-P", pane, "-f", "presencetop"]).waitForExit()
    }

    @Test func withoutATerminalItPointsToTheDemo() async throws {
        let child = try await ChildProcess(ChildProcess.presencetop, ["--users", "1"])
        #expect(try await child.waitForExit() == 2)
        #expect(child.standardError.contains("needs a terminal"), "\(child.standardError)")
        #expect(child.standardError.contains("presencetop demo"))
    }

    @Test func badDashboardFlagsGetClearErrors() async throws {
        let cases: [([String], String)] = [
            (["--link", "moon"], "--link 'moon' is not a preset"),
            (["--devices", "9"], "--devices must be between 1 and 6, not 9"),
            (
                ["--url", "ftp://x"],
                "--url 'ftp://x' is not a database URL (http://HOST:PORT?ns=NAME, https://<db>.firebaseio.com"
            ),
            (["--memory", "--data", "/tmp/x"], "--data and --memory cannot be used together"),
            // A database after the first: its own options' problems, named with its --url.
            (
                ["--url", "http://127.0.0.1:1?ns=a", "--url", "ftp://x"],
                "--url 'ftp://x' is not a database URL"
            ),
            (
                ["--url", "http://127.0.0.1:1?ns=a", "--url", "http://127.0.0.1:2?ns=b", "--layout", "moon"],
                "--url http://127.0.0.1:2?ns=b: --layout 'moon' is not connections or status"
            ),
            (
                [
                    "--url", "http://127.0.0.1:1?ns=a", "--url", "http://127.0.0.1:2?ns=b", "--database-secret-file",
                    "/nonexistent/s",
                ],
                "--url http://127.0.0.1:2?ns=b: --database-secret-file: "
            ),
            // Was: "Missing value for '--users <users>'".
            (["--users", "-1"], "--users must be between 0 and 500, not -1"),
            (["--max-pending-bytes", "0"], "--max-pending-bytes must be at least 1, not 0"),
            (["--proxy-control", "http://127.0.0.1:1"], "--proxy-control needs --url"),
            (
                ["--url", "http://127.0.0.1:1?ns=a", "--proxy-control", "ftp://x"],
                "--proxy-control 'ftp://x' is not http://HOST:PORT"
            ),
            (["--layout", "moon"], "--layout 'moon' is not connections or status"),
            (["--layout", "status"], "--layout status reads an app's own presence and goes with --url"),
            (
                ["--url", "http://127.0.0.1:1", "--layout", "status", "--simulate", "2"],
                "--layout status only watches: --simulate and --device write the documented layout"
            ),
            (["--state-child", "a.b"], "--state-child 'a.b' is not a valid key"),
            // Keys and paths by the engine's own rules (one home: Validation): 768 bytes a key,
            // no control characters, nothing under .info to write to; a control character is
            // shown, not sent to the terminal.
            (["--user", "a\u{1B}[31mb"], #"--user 'a\u{1B}[31mb' is not a valid key"#),
            (["--connections-child", String(repeating: "k", count: 769)], "769 UTF-8 bytes, the limit is 768"),
            (["--presence-path", "users/x#y"], "--presence-path 'users/x#y' is not a valid path"),
            (
                ["--url", "https://my-app.firebaseio.com", "--device", "--write-path", ".info/x"],
                "--write-path '.info/x' is not a valid path: '/.info/x' is under .info, which is read-only"
            ),
            // Signing in to someone's database, and writing nothing there unasked.
            (["--credentials", "key.json"], "the sign-in options and --device go with --url"),
            (
                ["--url", "https://my-app.firebaseio.com", "--email", "a@b.c"],
                "--email needs --password-file and --api-key"
            ),
            (
                ["--url", "https://my-app.firebaseio.com", "--credentials", "/nonexistent/key.json"],
                "--credentials: cannot read the key file /nonexistent/key.json"
            ),
            (
                ["--url", "https://my-app.europe-west1.firebasedatabase.app", "--simulate", "3"],
                "--simulate writes made-up users into https://my-app.europe-west1.firebasedatabase.app?ns=my-app"
            ),
            (
                ["--url", "https://my-app.firebaseio.com", "--device"],
                "--device on https://my-app.firebaseio.com?ns=my-app needs --write-path"
            ),
            (
                ["--url", "https://my-app.firebaseio.com", "--as-uid", "alice"],
                "--as-uid on https://my-app.firebaseio.com?ns=my-app needs --credentials"
            ),
            (
                ["--url", "http://127.0.0.1:1", "--credentials", "k.json", "--database-secret-file", "s"],
                "--credentials and --database-secret-file cannot be used together"
            ),
        ]
        for (arguments, message) in cases {
            let child = try await ChildProcess(ChildProcess.presencetop, arguments)
            #expect(try await child.waitForExit() != 0)
            #expect(child.standardError.contains(message), "\(arguments): \(child.standardError)")
        }
        // Was: the root's help did not list the dashboard's options.
        let help = try await ChildProcess(ChildProcess.presencetop, ["--help"])
        #expect(try await help.waitForExit() == 0)
        for option in ["--url <url>", "--users <users>", "--theme <theme>", "SUBCOMMANDS:"] {
            #expect(help.standardOutput.contains(option), "\(option) in --help")
        }
    }

    /// Was: TERM=dumb drew one line and left debris after exit.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func aTerminalThatCannotMoveTheCursorIsRefused() async throws {
        let (command, home) = try Self.command("--users 1 --memory", environment: ["TERM=dumb"])
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.close() }
        let (ok, screen) = try await tmux.waitFor { $0.contains("EXIT=") }
        #expect(ok && screen.contains("EXIT=2") && screen.contains("presencetop demo"), "\(screen)")
    }

    /// Ctrl-C exits as a shell expects after an interrupt.
    @Test(.enabled(if: enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func ctrlCExits130() async throws {
        let (command, home) = try Self.command("--users 1 --churn 0 --memory")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.close() }
        var (ok, screen) = try await tmux.waitFor { $0.contains("Pending writes") }
        #expect(ok, "\(screen)")
        try await tmux.send("C-c")
        (ok, screen) = try await tmux.waitFor { $0.contains("EXIT=") }
        #expect(ok && screen.contains("EXIT=130"), "\(screen)")
    }
}
