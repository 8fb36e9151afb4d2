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
        // `presencetop watch … | jq` on the same database counts what the dashboard counts.
        let jq = "/usr/bin/jq"
        if FileManager.default.isExecutableFile(atPath: jq) || ProcessInfo.processInfo.environment["CI"] == "true" {
            let watch =
                "set -o pipefail; '\(ChildProcess.presencetop.path)' watch --url 'http://127.0.0.1:\(port)?ns=demo' "
                + "--layout status --summary-every 1 | \(jq) -cn 'first(inputs | select(.type == \"summary\"))"
                + " | [.users, .online, .connections]'"
            let shell = try await ChildProcess(
                URL(fileURLWithPath: "/bin/bash"), ["-c", watch], environment: WatchProcessTests.environment(home))
            #expect(try await shell.waitForExit() == 0, "\(shell.standardError)")
            #expect(shell.standardOutput == "[3,1,null]\n", "\(shell.standardOutput)")
            #expect(screen.contains("3 users") && screen.contains("1 online") && !screen.contains("connection"))
        }
        let (quit, _) = try await tmux.quit()
        #expect(quit)
        // Watching only: the lab's device writes the documented layout, so it stays out.
        let stored = try await http("GET", "/.json?ns=demo", port: port).json
        #expect(stored?.objectValue?.keys.map(\.string) == ["status"])
    }

    /// Names in their own scripts, drawn whole: each row's STATE column where the terminal puts it.
    ///
    /// Was, at 120 columns: `प्रिया` drawn `प्य`, `অনন্যা` drawn `অনন্`, `👩‍💻dev` drawn `👩dev` with
    /// its joiner pushed into the STATE column, and the row's later columns garbled.
    @Test(.enabled(if: DashboardTmuxTests.enabled, "needs tmux (installed by .ci/run; required when CI=true)"))
    func namesInEveryScriptAreDrawnWholeWithTheirColumnsInPlace() async throws {
        // How far tmux 3.3a moves its cursor for each (printed plainly, `#{cursor_x}`).
        let widths = ["प्रिया": 5, "অনন্যা": 5, "👩‍💻dev": 5, "สมชาย": 5, "محمد": 4, "李小龍": 6, "zoë": 3]
        let (server, port) = try await ChildProcess.serve(["--memory"])
        defer { server.signal(SIGTERM) }
        var members: [String] = []
        for (index, name) in widths.keys.sorted().enumerated() {
            let state = index % 2 == 0 ? "online" : "offline"
            members.append("\"\(name)\": {\"state\": \"\(state)\", \"last_changed\": \(1_764_000_000_000 + index)}")
        }
        _ = try await http("PUT", "/status.json?ns=demo", port: port, body: "{" + members.joined(separator: ",") + "}")
        let (command, home) = try DashboardTmuxTests.command(
            "--url 'http://127.0.0.1:\(port)?ns=demo' --layout status --churn 0")
        defer { try? FileManager.default.removeItem(at: home) }
        let tmux = try await TmuxSession(command: command, width: 120, height: 40)
        defer { tmux.close() }
        let (ok, screen) = try await tmux.waitFor { screen in
            widths.keys.allSatisfy { name in screen.split(separator: "\n").contains { $0.contains(name) } }
        }
        #expect(ok, "every name whole:\n\(screen)")
        var stateColumns: [String: Int] = [:]
        for (name, width) in widths {
            // The isolates a right-to-left name is sent inside take no column.
            let isolates: Set<Character> = ["\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
            let row = screen.split(separator: "\n").first { $0.contains(name) }
            guard let line = row?.filter({ !isolates.contains($0) }),
                let marker = line.firstIndex(where: { $0 == "●" || $0 == "○" }),
                let range = line.range(of: name)
            else {
                Issue.record("no row with \(name) and a state:\n\(screen)")
                continue
            }
            // Everything before the marker but the name is one column a character (spaces, the border).
            let before = line[..<marker]
            stateColumns[name] = before.count - name.count + width
            #expect(range.upperBound <= marker, "\(name) stays left of its state")
        }
        #expect(
            Set(stateColumns.values).count == 1, "the STATE column in place on every row: \(stateColumns)\n\(screen)")
        // The Arabic name reaches the terminal isolated from its row; no other name is.
        #expect(screen.contains("\u{2068}محمد\u{2069}"), "محمد isolated:\n\(screen.debugDescription)")
        #expect(screen.unicodeScalars.filter { $0 == "\u{2068}" }.count == 1, "\(screen.debugDescription)")
        _ = try await tmux.quit()
    }
}
